// A tiny echo agent on @a2a-js/sdk 1.x: `node js1_echo_server.mjs PORT`. JSON-RPC at /, HTTP+JSON
// at /rest. Its card is built from the SDK's own (ts-proto) objects, as a TypeScript agent types
// it, so its security scheme is served in the SDK's internal oneof form
// {"scheme": {"$case": "apiKeySecurityScheme", "value": {...}}} (a2a-js issues #663/#664).
// The API key goes in header X-Echo-Key; only the extended card (over HTTP+JSON) asks for it.
import express from "express";
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";

const port = Number(process.argv[2]);
const base = `http://127.0.0.1:${port}`;
const KEY = "echo-key";
const card = {
  name: "js1 echo", description: "echoes the text it is sent", version: "1.0.0",
  supportedInterfaces: [
    { url: `${base}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
    { url: `${base}/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0", tenant: "" },
  ],
  provider: undefined,
  capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: true },
  securitySchemes: {
    echoKey: { scheme: { $case: "apiKeySecurityScheme", value: { description: "the echo key", location: "header", name: "X-Echo-Key" } } },
  },
  securityRequirements: [],
  defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"],
  skills: [{ id: "echo", name: "echo", description: "echo", tags: ["echo"], examples: ["hi"], inputModes: [], outputModes: [], securityRequirements: [] }],
  signatures: [],
};
const extended = { ...card, name: "js1 echo (extended)" };

class Echo {
  async execute(ctx, bus) {
    const text = (ctx.userMessage.parts || []).map((p) => (p.content && p.content.$case === "text" ? p.content.value : "")).join(" ");
    bus.publish(AgentEvent.message({
      messageId: `m-${Date.now()}`, contextId: ctx.contextId, taskId: "", role: 2,
      parts: [{ content: { $case: "text", value: `echo: ${text}` }, metadata: undefined, filename: "", mediaType: "" }],
      metadata: undefined, extensions: [], referenceTaskIds: [],
    }));
    bus.finished();
  }
  async cancelTask() {}
}

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new Echo(), undefined, undefined, undefined, extended);
const app = express();
// the HTTP+JSON extended card only for a caller that sends the key where the card says
app.use("/rest/extendedAgentCard", (req, res, next) => (req.get("X-Echo-Key") === KEY ? next() : res.status(401).json({ code: -32001, message: "the extended card needs X-Echo-Key" })));
app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
app.use("/rest", restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
app.use("/", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
app.listen(port, "127.0.0.1");
