/**
 * `npm run example:nest`: a NestJS application context with agenttoolkit's module, two tool providers in two
 * feature modules, the tool listing a model would get, and calls made as a model would make them (one resolving a
 * request-scoped provider for the request's user, one declined by the approval step). Runs in-process, no network.
 */
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ToolContext, Tools, ToolSchemaFormat } from '../../lib';
import { AgentToolkitModule, NEST_REQUEST } from '../../lib/nestjs';
import { OrdersModule, WeatherModule } from './tools';

@Module({
  imports: [
    AgentToolkitModule.forRoot({ approve: (call) => call.params.orderId !== 'o-1' }),
    WeatherModule,
    OrdersModule,
  ],
})
export class AppModule {}

export async function main(log: (line: string) => void = console.log): Promise<string[]> {
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  try {
    const tools = app.get(Tools);
    log('Tools (Anthropic format):');
    for (const tool of tools.getSchema(ToolSchemaFormat.ANTHROPIC)) log(`  ${tool.name}: ${tool.description} ${JSON.stringify(tool.input_schema.properties)}`);
    const request = { user: 'ada' };
    const context = new ToolContext().provide(NEST_REQUEST, request);
    const answers: string[] = [];
    for (const [name, args] of [['forecast', { city: 'Oslo' }], ['orders_myOrders', {}], ['orders_cancelOrder', { orderId: 'o-1' }], ['orders_cancelOrder', { orderId: 'o-2' }], ['orders_myOrders', {}]] as const) {
      const result = await tools.execute(name, args, { context });
      const answer = result.ok ? JSON.stringify(result.result) : `error: ${result.error}`;
      answers.push(answer);
      log(`${name}(${JSON.stringify(args)}) -> ${answer}`);
    }
    return answers;
  } finally {
    await app.close();
  }
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
