// The echo agent of js_echo_server.mjs on @a2a-js/sdk 0.3.x's HTTP+JSON mount (restHandler at
// /rest, the 0.3 routes /rest/v1/...): `node js_rest_echo_server.mjs PORT`. Its errors are an HTTP
// status with {"code": -32001, "message": ...}, not a google.rpc.Status.
import express from "express";
import { DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, restHandler, UserBuilder } from "@a2a-js/sdk/server/express";

const port = Number(process.argv[2]);
const url = `http://127.0.0.1:${port}/rest`;
const card = {
  name: "js rest echo", description: "echoes the text it is sent", version: "1.0.0",
  protocolVersion: "0.3.0", url, preferredTransport: "HTTP+JSON",
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"],
  skills: [{ id: "echo", name: "echo", description: "echo", tags: ["echo"], examples: ["hi"] }],
};

class Echo {
  async execute(ctx, bus) {
    const text = (ctx.userMessage.parts || []).map((p) => p.text || "").join(" ");
    const base = { taskId: ctx.taskId, contextId: ctx.contextId };
    bus.publish({ kind: "task", id: ctx.taskId, contextId: ctx.contextId, status: { state: "submitted" }, history: [ctx.userMessage] });
    bus.publish({ kind: "artifact-update", ...base, artifact: { artifactId: "a-1", name: "echo", parts: [{ kind: "text", text: `echo: ${text}` }] } });
    bus.publish({ kind: "status-update", ...base, status: { state: "completed" }, final: true });
    bus.finished();
  }
  async cancelTask() {}
}

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new Echo());
const app = express();
app.use("/.well-known/agent-card.json", agentCardHandler({ agentCardProvider: handler }));
app.use("/rest", restHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
app.listen(port, "127.0.0.1");
