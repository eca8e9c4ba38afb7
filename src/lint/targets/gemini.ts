import type { Finding, LintTarget, ServerTools } from '../lint-types.js';
import { allTools, findingsOfTool, inputSchemaNodes, toolName, tooManyTools } from '../rule-helpers.js';
import { isSchemaObject, member } from '../schema-walk.js';

/*
 * The Gemini API's function declarations, `parameters`: "a select subset of an OpenAPI 3.0 schema
 * object" (googleapis/js-genai src/types.ts `interface Schema` @6e9b35c4). A field outside the subset
 * fails the whole request with 400 "Unknown name … Cannot find field" (users' logs: promptfoo #6902
 * for additionalProperties, zed #44875 for const, zed #53919 for a type array: "Proto field is not
 * repeating"), and `$defs`/`$ref` fail as in google-gemini/gemini-cli#13326. Clients that send the
 * newer `parametersJsonSchema` instead (Gemini CLI does, mcp-client.ts @5411f113) take JSON Schema.
 */
const SCHEMA_SUBSET = 'https://github.com/googleapis/js-genai/blob/6e9b35c45e21f0d37179a24d29dca01ebed698e6/src/types.ts#L2318';
const FUNCTION_DECLARATION = 'https://github.com/googleapis/js-genai/blob/6e9b35c45e21f0d37179a24d29dca01ebed698e6/src/types.ts#L2666';
const DECLARATION_LIMIT = 'https://github.com/googleapis/js-genai/blob/6e9b35c45e21f0d37179a24d29dca01ebed698e6/src/types.ts#L2768';
const DEFS_ISSUE = 'https://github.com/google-gemini/gemini-cli/issues/13326';
const TYPE_ARRAY_ISSUE = 'https://github.com/zed-industries/zed/issues/53919';
/*
 * `enum` is `Array<string>` in js-genai's Schema, and the API holds it to that: a number in it fails
 * the whole request with "Invalid value at '…parameters.properties[16].value.enum[0]' (TYPE_STRING)"
 * (microsoft/azure-devops-mcp#145, #139, Gemini CLI users), and string values on a schema that is not
 * type string (integer, boolean, or no type) fail it with "…enum: only allowed for STRING type"
 * (router-for-me/CLIProxyAPI#1260, directus/directus#27100, decolua/9router#359) — whatever the
 * SDK's doc comment's `{type: INTEGER, format: enum}` example suggests.
 */
const ENUM_VALUES_ISSUE = 'https://github.com/microsoft/azure-devops-mcp/issues/145';
const ENUM_TYPE_ISSUE = 'https://github.com/router-for-me/CLIProxyAPI/issues/1260';

/** The Schema fields the Gemini API knows (js-genai `interface Schema`). */
export const GEMINI_SCHEMA_FIELDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'propertyOrdering',
  'default',
  'example',
]);

const NAME = /^[A-Za-z_][A-Za-z0-9_.:-]*$/;
const PARAMETER_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

function check(servers: ServerTools[]): Finding[] {
  const target = 'gemini';
  const findings = [
    ...tooManyTools(target, servers, {
      limit: 512,
      severity: 'error',
      consequence: 'the Gemini API takes at most 512 function declarations in one request',
      fix: 'offer fewer tools, or let users turn some off',
      source: DECLARATION_LIMIT,
    }),
  ];
  if (findings.length === 0) {
    findings.push(
      ...tooManyTools(target, servers, {
        limit: 128,
        severity: 'warning',
        consequence: 'older Gemini models on Vertex AI take at most 128 function declarations',
        fix: 'offer fewer tools, or let users turn some off',
        source: DECLARATION_LIMIT,
      }),
    );
  }
  for (const { server, tool } of allTools(servers)) {
    const name = toolName(tool);
    const add = findingsOfTool(findings, target, server, name);
    if (!NAME.test(name)) {
      add({
        rule: 'name-pattern',
        severity: 'error',
        path: '$.name',
        message: 'a function name must start with a letter or _ and hold only letters, digits, _ . : and -',
        fix: 'rename the tool with those characters',
        source: FUNCTION_DECLARATION,
      });
    }
    if (name.length > 128) {
      add({
        rule: 'name-length',
        severity: 'error',
        path: '$.name',
        message: `the name is ${name.length} characters; the Gemini API takes at most 128`,
        fix: 'shorten the name',
        source: FUNCTION_DECLARATION,
      });
    } else if (name.length > 64) {
      add({
        rule: 'name-length',
        severity: 'warning',
        path: '$.name',
        message: `the name is ${name.length} characters; Gemini models before the 128-character limit (and Vertex AI v1) take at most 64`,
        fix: 'keep the name within 64 characters',
        source: FUNCTION_DECLARATION,
      });
    }
    for (const node of inputSchemaNodes(tool)) {
      const unknown = Object.keys(node.schema).filter((key) => !GEMINI_SCHEMA_FIELDS.has(key));
      for (const keyword of unknown) {
        const refs = keyword === '$ref' || keyword === '$defs' || keyword === 'definitions';
        add({
          rule: refs ? 'schema-references' : 'unsupported-keyword',
          severity: 'error',
          path: `${node.path}${member(keyword)}`,
          message: refs
            ? `${keyword}: Gemini's schema subset has no references, and the request fails`
            : `${keyword} is not in Gemini's schema subset (OpenAPI 3.0): the request fails with "Unknown name \\"${keyword}\\""`,
          fix: refs
            ? 'inline the referenced definitions (mcp lint --fix --target gemini shows how)'
            : `remove ${keyword}, or say it in the description (--fix --target gemini shows the schema without it)`,
          source: refs ? DEFS_ISSUE : SCHEMA_SUBSET,
        });
      }
      if (Array.isArray(node.schema.type)) {
        add({
          rule: 'type-array',
          severity: 'error',
          path: `${node.path}.type`,
          message: `type ${JSON.stringify(node.schema.type)}: Gemini takes one type ("Proto field is not repeating")`,
          fix: 'use one type, with nullable: true for null (--fix --target gemini)',
          source: TYPE_ARRAY_ISSUE,
        });
      }
      if (Array.isArray(node.schema.enum)) {
        const type = node.schema.type;
        const others = node.schema.enum.filter((value) => typeof value !== 'string');
        // A type array is the type-array rule's finding; its fix makes the enum's type string too.
        const typed = Array.isArray(type) || type === 'string';
        if (others.length > 0 || !typed) {
          add({
            rule: 'enum-values',
            severity: 'error',
            path: `${node.path}.enum`,
            message:
              others.length > 0
                ? `enum value ${JSON.stringify(others[0])}: Gemini takes enum values as strings only ("Invalid value at '…enum[${node.schema.enum.indexOf(others[0])}]' (TYPE_STRING)"), and the request fails`
                : `enum on a schema of ${type === undefined ? 'no type' : `type ${JSON.stringify(type)}`}: Gemini takes enum only on type "string" ("enum: only allowed for STRING type"), and the request fails`,
            fix: 'make it a string-typed enum of strings (--fix --target gemini shows it), and read the value back as a string in the tool',
            source: others.length > 0 ? ENUM_VALUES_ISSUE : ENUM_TYPE_ISSUE,
          });
        }
      }
      if (node.depth === 0 && isSchemaObject(node.schema.properties)) {
        for (const parameter of Object.keys(node.schema.properties)) {
          if (!PARAMETER_NAME.test(parameter)) {
            add({
              rule: 'parameter-name',
              severity: 'warning',
              path: `${node.path}.properties${member(parameter)}`,
              message: `parameter '${parameter}': Gemini documents parameter names as a letter or _ then letters, digits and _, at most 64`,
              fix: 'rename the parameter',
              source: FUNCTION_DECLARATION,
            });
          }
        }
      }
    }
  }
  return findings;
}

export const gemini: LintTarget = { name: 'gemini', version: 2, title: 'Gemini API (function declarations, OpenAPI schema subset)', format: 'gemini', check };
