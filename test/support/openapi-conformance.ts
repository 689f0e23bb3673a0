import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** An answer as observed on the wire: header names in any case (Node lower-cases them), the body as text. */
export interface ObservedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

type ResponseObject = {
  headers?: Record<string, { required?: boolean; schema: object }>;
  content?: Record<string, { schema: object }>;
};
type OperationObject = { responses: Record<string, ResponseObject> };
export type OpenApiDocument = { paths: Record<string, Record<string, OperationObject>> };

/** The base URI the document is registered under, so that its own `#/components/...` references resolve. */
const DOCUMENT_ID = 'https://openapi.invalid/openapi.json';

/** A JSON Pointer token (RFC 6901): `/` and `~` escaped. */
const token = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Checks observed answers against an OpenAPI 3.1 document: the status must be one the operation declares,
 * every header it declares required must be there, every declared header present must match its schema,
 * and the body must be of a declared media type and match its schema (JSON Schema draft 2020-12 with
 * ajv-formats, the document's $refs resolved); a response declaring no content must have no body.
 *
 * A method the path has no operation for is checked against the 405 its operations declare (all of them
 * alike, since a wrong method is answered for the path, before any operation runs).
 */
export class ResponseConformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    this.ajv.addSchema(document as object, DOCUMENT_ID);
  }

  /** Every way `response`, the answer to `method path` (a path of the document), departs from the document; [] when none. */
  problems(method: string, path: string, response: ObservedResponse): string[] {
    const item = this.document.paths[path];
    if (!item) return [`${path} is not a path of the document`];
    const own = item[method.toLowerCase()];
    const operationKey = own ? method.toLowerCase() : Object.keys(item)[0]!;
    const where = `${method} ${path} -> ${response.status}`;
    if (!own && response.status !== 405)
      return [`${where}: ${method} is no operation of the path, so only its 405 is declared`];
    const declared = item[operationKey]!.responses[String(response.status)];
    if (!declared)
      return [
        `${where}: status ${response.status} is not declared (declared: ${Object.keys(item[operationKey]!.responses).join(', ')})`,
      ];
    const pointer = `/paths/${token(path)}/${operationKey}/responses/${response.status}`;
    return [
      ...this.headerProblems(where, pointer, declared, response),
      ...this.bodyProblems(where, pointer, declared, response),
    ];
  }

  private headerProblems(
    where: string,
    pointer: string,
    declared: ResponseObject,
    response: ObservedResponse,
  ): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(declared.headers ?? {})) {
      const value = headerValue(response, name);
      if (value === undefined) {
        if (header.required) problems.push(`${where}: the required header ${name} is missing`);
        continue;
      }
      const validate = this.validator(`${pointer}/headers/${token(name)}/schema`);
      if (!validate(value))
        problems.push(`${where}: header ${name}: ${JSON.stringify(value)} ${this.ajv.errorsText(validate.errors)}`);
    }
    return problems;
  }

  private bodyProblems(where: string, pointer: string, declared: ResponseObject, response: ObservedResponse): string[] {
    const content = declared.content ?? {};
    if (Object.keys(content).length === 0)
      return response.body === '' ? [] : [`${where}: a body where none is declared`];
    const contentType = headerValue(response, 'Content-Type');
    const mediaType = contentType === undefined ? undefined : contentType.split(';')[0]!.trim().toLowerCase();
    if (mediaType === undefined || !Object.hasOwn(content, mediaType))
      return [`${where}: Content-Type ${String(contentType)} is not one of ${Object.keys(content).join(', ')}`];
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      return [`${where}: the body is not JSON`];
    }
    const validate = this.validator(`${pointer}/content/${token(mediaType)}/schema`);
    return validate(body) ? [] : [`${where}: body ${this.ajv.errorsText(validate.errors)}`];
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
      this.validators.set(pointer, validate);
    }
    return validate;
  }
}

/** One header's value, its name matched in any case; a repeated header counts as its values joined, as HTTP reads them. */
function headerValue(response: ObservedResponse, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(response.headers)) {
    if (key.toLowerCase() === wanted && value !== undefined) return Array.isArray(value) ? value.join(', ') : value;
  }
  return undefined;
}
