import { ResponseType, type RestApi } from 'aws-cdk-lib/aws-apigateway';
import { errorEnvelope, JSON_CONTENT_TYPE } from '../functions/http';
import { GATEWAY_RESPONSES, type GatewayResponseType } from './gateway-contract';

/** Gateway response bodies are templates: anything but a plain $context reference would be misread. */
export function assertPlainTemplate(body: string): string {
  const stripped = body.replace(/\$context(\.[A-Za-z0-9_]+)+/g, '');
  if (/[$#]/.test(stripped))
    throw new Error(`A response template must not hold '$' or '#' outside a $context reference: ${body}`);
  return body;
}

/** Adds a gateway response for every type of the gateway contract (gateway-contract.ts), in the error envelope. */
export function addGatewayResponses(api: RestApi): void {
  for (const [type, { status, phrase }] of Object.entries(GATEWAY_RESPONSES)) {
    api.addGatewayResponse(responseId(type as GatewayResponseType), {
      type: ResponseType.of(type),
      statusCode: String(status),
      responseHeaders: { 'Content-Type': `'${JSON_CONTENT_TYPE}'` },
      templates: { 'application/json': assertPlainTemplate(errorEnvelope(status, phrase)) },
    });
  }
}

/** UNAUTHORIZED -> UnauthorizedResponse: a readable, stable construct id. */
function responseId(type: GatewayResponseType): string {
  const words = type.toLowerCase().split('_');
  return `${words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('')}Response`;
}
