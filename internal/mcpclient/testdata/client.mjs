// Drives an MCP server over stdio with the official TypeScript SDK, as an
// agent's host does, and prints what it got as one JSON object:
//
//   node client.mjs SCENARIO.json
//
// SCENARIO.json: {"command", "args", "env", "calls": [{"label", "tool",
// "arguments"}], "resources": [URI...]}. The output: {"server", "tools"
// (name, inputSchema), "templates", "resourceList", "calls" ({label:
// {isError, text, structured}}), "resources" ({uri: {text, mimeType} or
// {error}})}. A call the protocol refuses is {"error": message}.
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const scenario = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const transport = new StdioClientTransport({
  command: scenario.command,
  args: scenario.args,
  env: scenario.env,
  stderr: 'inherit',
});
const client = new Client({ name: 'skilldex-test', version: '1.0.0' });
await client.connect(transport);

const out = { server: client.getServerVersion(), calls: {}, resources: {} };
out.tools = (await client.listTools()).tools.map((t) => ({ name: t.name, inputSchema: t.inputSchema }));
out.templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
out.resourceList = (await client.listResources()).resources.map((r) => r.uri);
for (const c of scenario.calls) {
  try {
    const r = await client.callTool({ name: c.tool, arguments: c.arguments });
    out.calls[c.label] = {
      isError: !!r.isError,
      text: r.content.filter((x) => x.type === 'text').map((x) => x.text).join(''),
      structured: r.structuredContent ?? null,
    };
  } catch (e) {
    out.calls[c.label] = { error: String(e && e.message ? e.message : e) };
  }
}
for (const uri of scenario.resources || []) {
  try {
    const r = await client.readResource({ uri });
    out.resources[uri] = { text: r.contents[0].text, mimeType: r.contents[0].mimeType };
  } catch (e) {
    out.resources[uri] = { error: String(e && e.message ? e.message : e) };
  }
}
await client.close();
process.stdout.write(JSON.stringify(out) + '\n');
