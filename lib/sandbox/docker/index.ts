export { dockerClient, dockerOptionsFromUrl, type DockerConnection } from './connection';
export { DEFAULT_DOCKER_MEMORY_BYTES, DEFAULT_DOCKER_PIDS, SANDBOX_LABEL } from './container-spec';
export { DockerSandbox, type DockerSandboxOptions } from './docker-sandbox';
export { DockerWorkspace, type DockerExecOptions, type DockerExecResult, type DockerWorkspaceOptions } from './docker-workspace';
