// The echo agent on @a2a-js/sdk 1.x with its 0.3 compat layer (`legacyCompat`): `node
// js1_compat_echo_server.mjs PORT`. JSON-RPC at /, HTTP+JSON at /rest, each in 1.0 and 0.3 (the
// 0.3 routes /rest/v1/...); a request without A2A-Version (or with 0.3) is 0.3 and gets the card
// in its 0.3 form. Push notifications on (an in-memory store), so push configs can be created.
import express from "express";
import { AgentEvent, DefaultRequestHandler, InMemoryPushNotificationStore, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";

const port = Number(process.argv[2]);
const base = `http://127.0.0.1:${port}`;
const card = {
  name: "js1 compat echo", description: "echoes the text it is sent", version: "1.0.0",
  supportedInterfaces: [
    { url: `${base}/`, protocolBinding: "JSONRPC", protocolVersion: "1.0", tenant: "" },
    { url: `${base}/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "1.0", tenant: "" },
    { url: `${base}/`, protocolBinding: "JSONRPC", protocolVersion: "0.3", tenant: "" },
    { url: `${base}/rest`, protocolBinding: "HTTP+JSON", protocolVersion: "0.3", tenant: "" },
  ],
  provider: undefined,
  capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
  securitySchemes: {}, securityRequirements: [],
  defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"],
  skills: [{ id: "echo", name: "echo", description: "echo", tags: ["echo"], examples: ["hi"], inputModes: [], outputModes: [], securityRequirements: [] }],
  signatures: [],
};

class Echo {
  async execute(ctx, bus) {
    const text = (ctx.userMessage.parts || []).map((p) => (p.content && p.content.$case === "text" ? p.content.value : "")).join(" ");
    const ids = { taskId: ctx.taskId, contextId: ctx.contextId };
    bus.publish(AgentEvent.task({ id: ctx.taskId, contextId: ctx.contextId, status: { state: 1, update: undefined, timestamp: undefined }, artifacts: [], history: [ctx.userMessage], metadata: undefined }));
    bus.publish(AgentEvent.artifactUpdate({ ...ids, artifact: { artifactId: "a-1", name: "echo", description: "", parts: [{ content: { $case: "text", value: `echo: ${text}` }, metadata: undefined, filename: "", mediaType: "" }], metadata: undefined, extensions: [] }, append: false, lastChunk: true, metadata: undefined }));
    bus.publish(AgentEvent.statusUpdate({ ...ids, status: { state: 3, update: undefined, timestamp: undefined }, metadata: undefined }));
    bus.finished();
  }
  async cancelTask() {}
}

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new Echo(), undefined, new InMemoryPushNotificationStore());
const app = express();
const legacyCompat = { enabled: true };
app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler, legacyCompat }));
app.use("/rest", restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
app.use("/", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
app.listen(port, "127.0.0.1");
