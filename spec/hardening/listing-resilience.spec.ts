import { Availability, descriptionFromContext, InjectionToken, ToolContext, Tools, ToolSchemaFormat } from '../../lib';

describe('review: one broken tool never breaks the listing of the others', () => {
  const CONFIG = new InjectionToken<{ region: string }>('CONFIG');

  function registry() {
    const logger = { warn: jest.fn(), error: jest.fn() };
    const tools = new Tools({ logger, context: new ToolContext().provide(CONFIG, { region: 'eu' }) });
    tools.action({ name: 'fine', description: 'Fine.' }, () => 1);
    tools.action({ name: 'bad_description', description: descriptionFromContext(CONFIG, () => { throw new Error('render bug'); }, 'fallback') }, () => 1);
    tools.action({ name: 'bad_availability', description: 'Bad.', availableWhen: new Availability(() => { throw new Error('predicate bug'); }) }, () => 1);
    return { tools, logger };
  }

  it.each(Object.entries(ToolSchemaFormat))('lists the other tools in %s and logs the broken ones', (_name, format) => {
    const { tools, logger } = registry();
    expect(tools.getSchema(format).length).toBe(1);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringMatching(/bad_description.*description could not be rendered \(render bug\)/));
    expect(logger.error).toHaveBeenCalledWith(expect.stringMatching(/bad_availability/), expect.anything());
  });

  it('still answers an unknown tool with the available names', async () => {
    const { tools } = registry();
    expect((await tools.execute('nope', {})).error).toBe("Unknown tool 'nope'. Available: fine, bad_description");
  });
});
