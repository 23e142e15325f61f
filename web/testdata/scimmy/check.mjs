// Reads a JSON list of {kind, body} from stdin, checks each body with SCIMMY (an independent SCIM 2.0
// implementation, RFC 7643 and 7644) and writes a JSON list of the problems found.
import SCIMMY from "scimmy";

const input = JSON.parse(await new Promise((done) => {
  let data = "";
  process.stdin.on("data", (chunk) => data += chunk);
  process.stdin.on("end", () => done(data));
}));

const user = SCIMMY.Schemas.User.definition.extend(SCIMMY.Schemas.EnterpriseUser.definition);
const schemaOf = {
  User: user,
  Group: SCIMMY.Schemas.Group.definition,
  ServiceProviderConfig: SCIMMY.Schemas.ServiceProviderConfig.definition,
};

function check(kind, body) {
  if (schemaOf[kind]) {
    schemaOf[kind].coerce(body, "out");
    return;
  }
  if (kind === "ListResponse") {
    if (!body.schemas?.includes(SCIMMY.Messages.ListResponse.id)) throw new Error("no ListResponse schema");
    new SCIMMY.Messages.ListResponse(body);
    if (body.itemsPerPage !== body.Resources.length) throw new Error("itemsPerPage is not the number of Resources");
    return;
  }
  if (kind === "Error") {
    const {schemas, ...cause} = body;
    if (!schemas?.includes(SCIMMY.Messages.Error.id)) throw new Error("no Error schema");
    if (typeof cause.status !== "string") throw new Error("status is not a string");
    new SCIMMY.Messages.Error(cause);
    return;
  }
  throw new Error(`unknown kind ${kind}`);
}

const problems = [];
for (const [i, {kind, body}] of input.entries()) {
  try {
    check(kind, body);
  } catch (e) {
    problems.push(`answer ${i} (${kind}): ${e.message}`);
  }
}
process.stdout.write(JSON.stringify(problems));
