// A tiny echo agent on @a2a-js/sdk 0.3.x (run with NODE_PATH at its own npm folder):
// `node js_echo_server.mjs PORT`. Its card lists the JSON-RPC interface again among the
// additional ones, as the SDK's samples do. The text "hold" leaves its task working when execute
// returns (work handed to a background job): a subscription then gets the snapshot and the stream
// closes (no live event bus), and a cancel sets the stored task canceled.
import express from "express";
import { DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { A2AExpressApp } from "@a2a-js/sdk/server/express";

const port = Number(process.argv[2]);
const url = `http://127.0.0.1:${port}/`;
const card = {
  name: "js echo", description: "echoes the text it is sent", version: "1.0.0",
  protocolVersion: "0.3.0", url, preferredTransport: "JSONRPC",
  additionalInterfaces: [{ url, transport: "JSONRPC" }],
  capabilities: { streaming: true, pushNotifications: false },
  defaultInputModes: ["text/plain"], defaultOutputModes: ["text/plain"],
  skills: [{ id: "echo", name: "echo", description: "echo", tags: ["echo"] }],
};

class Echo {
  async execute(ctx, bus) {
    const text = (ctx.userMessage.parts || []).map((p) => p.text || "").join(" ");
    const base = { taskId: ctx.taskId, contextId: ctx.contextId };
    if (text === "hold") {
      bus.publish({ kind: "task", id: ctx.taskId, contextId: ctx.contextId, status: { state: "working" }, history: [ctx.userMessage] });
      bus.finished();
      return;
    }
    bus.publish({ kind: "task", id: ctx.taskId, contextId: ctx.contextId, status: { state: "submitted" }, history: [ctx.userMessage] });
    bus.publish({ kind: "artifact-update", ...base, artifact: { artifactId: "a-1", name: "echo", parts: [{ kind: "text", text: `echo: ${text}` }] } });
    bus.publish({ kind: "status-update", ...base, status: { state: "completed" }, final: true });
    bus.finished();
  }
  async cancelTask() {}
}

const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new Echo());
const app = new A2AExpressApp(handler).setupRoutes(express());
app.listen(port, "127.0.0.1");
