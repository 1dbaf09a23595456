#!/usr/bin/env node
// A small MCP server on stdio, built with the official SDK only (no agenttoolkit): the server that
// examples/mcp-client.ts starts and connects to, and the stdio server of the MCP client specs.
// Plain CommonJS so that `node examples/mcp-stdio-server.cjs` runs it without a build step.
'use strict';

const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { z } = require('zod');

const server = new McpServer({ name: 'notes-server', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
const notes = new Map([['welcome', 'Hello from the notes server.']]);

server.registerTool(
  'list_notes',
  { title: 'List notes', description: 'List the ids of all notes.', annotations: { readOnlyHint: true, openWorldHint: false } },
  () => ({ content: [{ type: 'text', text: [...notes.keys()].join('\n') }] }),
);

server.registerTool(
  'read_note',
  {
    description: 'Read one note by id.',
    inputSchema: { id: z.string().describe('The note id.') },
    outputSchema: { id: z.string(), text: z.string() },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  ({ id }) => {
    const text = notes.get(id);
    if (text === undefined) return { content: [{ type: 'text', text: `No note '${id}'. Call list_notes first.` }], isError: true };
    return { content: [{ type: 'text', text: JSON.stringify({ id, text }) }], structuredContent: { id, text } };
  },
);

server.registerTool(
  'write_note',
  { description: 'Create or replace a note.', inputSchema: { id: z.string(), text: z.string() }, annotations: { destructiveHint: true, openWorldHint: false } },
  ({ id, text }) => {
    notes.set(id, text);
    return { content: [{ type: 'text', text: `Saved note '${id}'.` }] };
  },
);

server.registerTool('wait', { description: 'Wait until cancelled (or for `ms` milliseconds).', inputSchema: { ms: z.number().optional() } }, ({ ms }, extra) =>
  new Promise((resolve) => {
    const timer = ms === undefined ? undefined : setTimeout(() => resolve({ content: [{ type: 'text', text: 'waited' }] }), ms);
    extra.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      process.stderr.write('wait: cancelled\n');
      resolve({ content: [{ type: 'text', text: 'cancelled' }] });
    });
  }),
);

server.registerTool('pid', { description: 'The server process id.' }, () => ({ content: [{ type: 'text', text: String(process.pid) }] }));

server.connect(new StdioServerTransport()).catch((error) => {
  process.stderr.write(`notes-server: ${error.message}\n`);
  process.exit(1);
});
