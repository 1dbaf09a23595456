/**
 * A real HTTP request through Nest's router (Express adapter): a tool call made while handling it resolves
 * request-scoped providers in the request's own context id, so the controller and the tool share one instance, and
 * Nest's REQUEST is the HTTP request.
 */
import { Body, Controller, Inject as NestInject, Injectable, Module, Post, Req, Scope, type INestApplication } from '@nestjs/common';
import { REQUEST } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { Action, Inject, ToolContext, Tools } from '../../lib';
import { AgentToolkitModule, NEST_REQUEST } from '../../lib/nestjs';

let built = 0;

@Injectable({ scope: Scope.REQUEST })
class Caller {
  readonly serial = ++built;
  constructor(@NestInject(REQUEST) private readonly request: { headers: Record<string, string | undefined> }) {}
  get name(): string {
    return this.request.headers['x-user'] ?? 'anonymous';
  }
}

@Injectable()
class CallerTools {
  @Action('Who is calling.')
  whoIsCalling(@Inject(Caller) caller: Caller): string {
    return `${caller.name} #${caller.serial}`;
  }
}

interface ToolCallBody {
  name: string;
  args: unknown;
}

/** Request-scoped through its Caller: Nest's router gives each request a context id before the handler runs. */
@Controller('scoped')
class ScopedController {
  constructor(
    private readonly tools: Tools,
    private readonly caller: Caller,
  ) {}

  @Post()
  async call(@Req() request: object, @Body() body: ToolCallBody) {
    const result = await this.tools.execute(body.name, body.args, { context: new ToolContext().provide(NEST_REQUEST, request) });
    return { controller: `${this.caller.name} #${this.caller.serial}`, tool: result.result };
  }
}

/** A singleton controller: the router gives the request no context id, the module attaches one. */
@Controller('static')
class StaticController {
  constructor(private readonly tools: Tools) {}

  @Post()
  async call(@Req() request: object, @Body() body: ToolCallBody) {
    const context = new ToolContext().provide(NEST_REQUEST, request);
    const first = await this.tools.execute(body.name, body.args, { context });
    const second = await this.tools.execute(body.name, body.args, { context });
    return { tool: [first.result, second.result] };
  }
}

@Module({ imports: [AgentToolkitModule.forRoot()], providers: [Caller, CallerTools], controllers: [ScopedController, StaticController] })
class HttpModule {}

describe('AgentToolkitModule behind a real HTTP request', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [HttpModule] }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    base = await app.getUrl();
  });
  afterAll(() => app.close());

  const post = async (path: string, user: string) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': user }, body: JSON.stringify({ name: 'whoIsCalling', args: {} }) });
    expect(response.status).toBe(201);
    return (await response.json()) as { controller?: string; tool: unknown };
  };

  it("shares the request's instances between the controller and the tool call", async () => {
    const ada = await post('/scoped', 'ada');
    expect(ada.tool).toBe(ada.controller);
    expect(ada.tool).toMatch(/^ada #\d+$/);
    const bob = await post('/scoped', 'bob');
    expect(bob.tool).toBe(bob.controller);
    const serial = (text: unknown) => String(text).split('#')[1];
    expect(serial(bob.tool)).not.toBe(serial(ada.tool));
  });

  it('gives a request the router left without a context id one, shared by its calls', async () => {
    const first = await post('/static', 'cy');
    const [one, two] = first.tool as string[];
    expect(one).toMatch(/^cy #\d+$/);
    expect(two).toBe(one);
    const [other] = (await post('/static', 'cy')).tool as string[];
    expect(other).not.toBe(one);
  });
});
