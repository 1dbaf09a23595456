export { AgentToolkitError } from './errors';
