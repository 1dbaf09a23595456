import { isMcpClientTelemetry, serverEndpoint } from '../../../lib/mcp/client/mcp-telemetry';

describe('serverEndpoint: server.address and server.port of a Streamable HTTP endpoint', () => {
  it.each([
    ['http://127.0.0.1:8123/mcp', { address: '127.0.0.1', port: 8123 }],
    ['https://mcp.example.com/mcp', { address: 'mcp.example.com', port: 443 }],
    ['http://mcp.example.com/mcp', { address: 'mcp.example.com', port: 80 }],
    ['http://[::1]:9000/mcp', { address: '::1', port: 9000 }],
  ])('%s', (url, expected) => {
    expect(serverEndpoint(url)).toEqual(expected);
    expect(serverEndpoint(new URL(url))).toEqual(expected);
  });
});

describe('isMcpClientTelemetry', () => {
  it('tells a telemetry that reports MCP requests from one that does not', () => {
    expect(isMcpClientTelemetry({ startMcpRequest: () => undefined })).toBe(true);
    expect(isMcpClientTelemetry({ isRecording: () => false, startCall: () => undefined })).toBe(false);
    expect(isMcpClientTelemetry(undefined)).toBe(false);
    expect(isMcpClientTelemetry(false)).toBe(false);
  });
});
