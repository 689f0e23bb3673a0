// The docs page's one script of ours: renders openapi.json, which sits next to the page, with Swagger UI.
// Every failure is shown on the page inside; nothing is left to reject.
void (async () => {
  const root = document.getElementById('swagger-ui');
  let spec;
  try {
    const response = await fetch('openapi.json', { cache: 'no-cache' });
    if (!response.ok) throw new Error(`openapi.json answered ${response.status}`);
    spec = await response.json();
  } catch (error) {
    root.textContent = `Could not load the API description: ${error.message}`;
    return;
  }
  // "Try it out" calls the selected server from the browser. The API sends no CORS headers, so only the
  // page's own origin can be called: offer it first (the local gateway, or the API's own domain when the
  // page is hosted there). The document itself is not changed.
  if (location.protocol === 'http:' || location.protocol === 'https:') {
    const servers = spec.servers ?? [];
    if (!servers.some((server) => server.url === location.origin)) {
      spec.servers = [{ url: location.origin, description: 'The origin of this page' }, ...servers];
    }
  }
  window.ui = SwaggerUIBundle({
    spec,
    dom_id: '#swagger-ui',
    deepLinking: true,
    // No badge from the public validator service, and no ?url= or ?configUrl= that would render another document.
    validatorUrl: null,
    queryConfigEnabled: false,
    // Keys typed into "Authorize" stay in the page's memory, never in localStorage.
    persistAuthorization: false,
  });
})();
