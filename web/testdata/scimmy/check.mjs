// Reads a JSON list of {kind, body, partial, status} from stdin, checks each body with SCIMMY (an
// independent SCIM 2.0 implementation, RFC 7643 and 7644) and writes a JSON list of the problems found.
//
// SCIMMY coerces a resource to its schema: it refuses wrong types, missing required attributes and
// values outside the canonical ones, and leaves out what the schema does not define. So every attribute
// of the body must come back from the coercion unchanged: one SCIMMY left out is not in the schema.
// A partial body (the answer to attributes or excludedAttributes) may lack required attributes: each
// attribute it has is checked alone.
import SCIMMY from "scimmy";

const input = JSON.parse(await new Promise((done) => {
  let data = "";
  process.stdin.on("data", (chunk) => data += chunk);
  process.stdin.on("end", () => done(data));
}));

const user = SCIMMY.Schemas.User.definition.extend(SCIMMY.Schemas.EnterpriseUser.definition);
const schemaOf = {
  User: {definition: user, schemas: [SCIMMY.Schemas.User.id, SCIMMY.Schemas.EnterpriseUser.id]},
  Group: {definition: SCIMMY.Schemas.Group.definition, schemas: [SCIMMY.Schemas.Group.id]},
  ServiceProviderConfig: {definition: SCIMMY.Schemas.ServiceProviderConfig.definition, schemas: [SCIMMY.Schemas.ServiceProviderConfig.id]},
  ResourceType: {definition: SCIMMY.Schemas.ResourceType.definition, schemas: [SCIMMY.Schemas.ResourceType.id]},
};

// same reports where got differs from what SCIMMY made of it, coerced; "" when it does not. Instants
// are compared as instants, since SCIMMY writes them with milliseconds.
function same(got, coerced, at) {
  if (coerced instanceof Date) {
    return typeof got === "string" && Date.parse(got) === coerced.getTime() ? "" : `${at} is not the instant ${got}`;
  }
  if (Array.isArray(got)) {
    if (!Array.isArray(coerced) || coerced.length !== got.length) return `${at} lost values`;
    for (const [i, v] of got.entries()) {
      const d = same(v, coerced[i], `${at}[${i}]`);
      if (d) return d;
    }
    return "";
  }
  if (got !== null && typeof got === "object") {
    if (coerced === null || typeof coerced !== "object") return `${at} is not an object`;
    for (const [k, v] of Object.entries(got)) {
      if (!(k in coerced)) return `${at ? at + "." : ""}${k} is not an attribute of the schema (or not so spelled)`;
      const d = same(v, coerced[k], `${at ? at + "." : ""}${k}`);
      if (d) return d;
    }
    return "";
  }
  return got === coerced ? "" : `${at} is ${JSON.stringify(got)}, the schema makes it ${JSON.stringify(coerced)}`;
}

function checkSchemas(kind, body) {
  const {schemas} = schemaOf[kind];
  if (!Array.isArray(body.schemas) || body.schemas[0] !== schemas[0]) {
    throw new Error(`schemas must start with ${schemas[0]}`);
  }
  for (const s of body.schemas) {
    if (!schemas.includes(s)) throw new Error(`schemas names ${s}, which the ${kind} resource type does not have`);
  }
}

function checkResource(kind, body, partial) {
  const {definition} = schemaOf[kind];
  checkSchemas(kind, body);
  if (!partial) {
    const d = same(body, JSON.parse(JSON.stringify(definition.coerce(body, "out")), reviveInstants), "");
    if (d) throw new Error(d);
    return;
  }
  for (const [k, v] of Object.entries(body)) {
    if (k === "schemas") continue;
    let attribute;
    try {
      attribute = definition.attribute(k);
    } catch {
      throw new Error(`${k} is not an attribute of the schema`);
    }
    const coerced = attribute.coerce(v, "out");
    const d = same(v, JSON.parse(JSON.stringify(coerced), reviveInstants), k);
    if (d) throw new Error(d);
  }
}

// reviveInstants turns the instants SCIMMY wrote back into Dates, for same.
function reviveInstants(_, v) {
  return typeof v === "string" && /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(v) ? new Date(v) : v;
}

function exactly(body, keys, what) {
  for (const k of Object.keys(body)) {
    if (!keys.includes(k)) throw new Error(`${what} has ${k}, which is none of ${keys.join(", ")}`);
  }
}

function check({kind, body, partial, status}) {
  if (schemaOf[kind]) {
    checkResource(kind, body, partial);
    return;
  }
  if (kind === "ListResponse") {
    exactly(body, ["schemas", "totalResults", "itemsPerPage", "startIndex", "Resources"], "a ListResponse");
    if (body.schemas?.length !== 1 || body.schemas[0] !== SCIMMY.Messages.ListResponse.id) {
      throw new Error(`schemas must be [${SCIMMY.Messages.ListResponse.id}]`);
    }
    new SCIMMY.Messages.ListResponse(body);
    if (!Array.isArray(body.Resources)) throw new Error("Resources is not a list");
    if (body.itemsPerPage !== body.Resources.length) throw new Error("itemsPerPage is not the number of Resources");
    if (body.Resources.length > body.totalResults) throw new Error("more Resources than totalResults");
    return;
  }
  if (kind === "Error") {
    exactly(body, ["schemas", "status", "scimType", "detail"], "an Error");
    const {schemas, ...cause} = body;
    if (schemas?.length !== 1 || schemas[0] !== SCIMMY.Messages.Error.id) {
      throw new Error(`schemas must be [${SCIMMY.Messages.Error.id}]`);
    }
    if (typeof cause.status !== "string") throw new Error("status is not a string");
    if (cause.status !== String(status)) throw new Error(`status ${cause.status} is not the HTTP status ${status}`);
    new SCIMMY.Messages.Error({...cause, status: Number(cause.status)});
    return;
  }
  throw new Error(`unknown kind ${kind}`);
}

const problems = [];
for (const [i, answer] of input.entries()) {
  try {
    check(answer);
  } catch (e) {
    problems.push(`answer ${i} (${answer.kind}): ${e.message}`);
  }
}
process.stdout.write(JSON.stringify(problems));
