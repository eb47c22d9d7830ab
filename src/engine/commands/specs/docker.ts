import type { WriteOp } from '../../effects/types.js';
import type { Confidence } from '../../effects/confidence.js';
import type { Field } from '../../shell/field.js';
import { parseArgs } from '../args.js';
import { unlisted } from '../unknown.js';
import { handOver } from '../daemon.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const DOCKER_GLOBAL = ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey'];

const DOCKER_VALUE_SHORT = 'aecfhlmopuvwH';

const DOCKER_VALUE_LONG = ['volume', 'mount', 'output', 'file', 'tag', 'name', 'env', 'env-file', 'workdir', 'user', 'publish', 'network', 'entrypoint', 'label', 'build-arg', 'target', 'platform', 'cidfile', 'iidfile', 'metadata-file', 'memory', 'cpus', 'hostname', 'add-host', 'cap-add', 'cap-drop', 'device', 'restart', 'format', 'filter', 'signal', 'time', 'project-name', 'project-directory', 'profile', 'cache-from', 'cache-to', 'secret', 'ssh', 'progress', 'shm-size', 'ulimit', 'gpus', 'runtime', 'pull', 'security-opt', 'log-driver', 'log-opt', 'tmpfs', 'volumes-from', 'ipc', 'pid', 'userns', 'detach-keys', 'since', 'until', 'tail'];

/**
 * docker / podman: the local paths a subcommand writes (`cp CTR:SRC DST`, `build -o`, `save -o`,
 * `--cidfile`), bind mounts a container may write (`-v HOST:CTR`, `--mount type=bind,...`), and
 * closed world for the rest: other operands and option values may be paths it writes.
 */
const docker: CommandSpec = {
  category: 'project',
  run(inv, interp) {
    let args = inv.args;
    // Global options come before the subcommand.
    while (args[0] && args[0].value.startsWith('-')) args = args.slice(DOCKER_GLOBAL.includes(args[0].value) ? 2 : 1);
    let sub = args[0]?.value;
    args = args.slice(1);
    if ((sub === 'container' || sub === 'image' || sub === 'buildx' || sub === 'builder') && args[0] && !args[0].value.startsWith('-')) {
      sub = args[0].value;
      args = args.slice(1);
    }
    if (sub === undefined) return;
    if (sub === 'compose') {
      // Bind mounts and build outputs live in the compose file: the project directory may be written.
      interp.write('maybe-write', { value: '.', confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, `${inv.name} compose`, { subtree: true, confidenceCap: 'possible' });
      // `compose up|run|exec|start` has the daemon run the services' commands.
      const verb = args.find((a) => ['up', 'run', 'exec', 'start', 'restart', 'create'].includes(a.value));
      if (verb) handOver(inv, interp, { daemon: inv.name === 'podman' ? 'podman' : 'the docker daemon', what: `${inv.name} compose ${verb.value}`, code: null, cwd: null, remote: true });
    }
    const p = parseArgs(args, { short: DOCKER_VALUE_SHORT, long: DOCKER_VALUE_LONG });
    const w = (op: WriteOp, f: Field, what: string, opts: { subtree?: boolean; confidenceCap?: Confidence } = {}) => interp.write(op, f, inv.st, inv.range, `${inv.name} ${what}`, opts);
    const described = new Set<string>();
    if (sub === 'cp') {
      const [src, dst] = p.operands;
      // `CONTAINER:PATH` names a path in a container; anything else is local.
      const inContainer = (f: Field) => /^[A-Za-z0-9][A-Za-z0-9_.-]*:/.test(f.value) && !f.value.startsWith('/') && !f.value.startsWith('.');
      if (src && dst && !inContainer(dst)) w('write', dst, 'cp', { subtree: true });
      return;
    }
    for (const o of p.options) {
      if (!o.value) continue;
      const v = o.value;
      if (['-o', '--output'].includes(o.name) && (sub === 'build' || sub === 'save' || sub === 'export' || sub === 'bake')) {
        described.add(o.name);
        const dest = /(?:^|,)dest=([^,]+)/.exec(v.value)?.[1] ?? (v.value.includes('=') ? null : v.value);
        if (dest && dest !== '-') w(sub === 'build' && !/type=(?:tar|oci|docker)/.test(v.value) ? 'extract' : 'write', { ...v, value: dest }, `${sub} ${o.name}`, { subtree: sub === 'build' });
      } else if (['--cidfile', '--iidfile', '--metadata-file'].includes(o.name)) {
        described.add(o.name);
        w('write', v, o.name);
      } else if (['-v', '--volume'].includes(o.name)) {
        described.add(o.name);
        const parts = v.value.split(':');
        const host = parts[0]!;
        if (parts.length >= 2 && /^(?:\/|\.|~)/.test(host) && !/(?:^|,)ro(?:,|$)/.test(parts[2] ?? '')) w('maybe-write', { ...v, value: host }, `${sub} -v`, { subtree: true, confidenceCap: 'possible' });
      } else if (o.name === '--mount') {
        described.add(o.name);
        const src = /(?:^|,)(?:source|src)=([^,]+)/.exec(v.value)?.[1];
        if (src && /(?:^|,)type=bind(?:,|$)/.test(v.value) && !/(?:^|,)(?:readonly|ro)(?:=true|=1)?(?:,|$)/.test(v.value)) w('maybe-write', { ...v, value: src }, `${sub} --mount`, { subtree: true, confidenceCap: 'possible' });
      } else if (['-f', '--file', '--env-file', '-e', '--env', '-t', '--tag', '--name', '-w', '--workdir', '-p', '--publish', '-u', '--user', '-l', '--label', '--build-arg', '--format', '--filter', '--platform', '--target', '--network', '--entrypoint', '-m', '--memory', '-h', '--hostname'].includes(o.name)) described.add(o.name);
    }
    // `docker run IMAGE CMD ARGS`: the daemon runs the command in a container, not here: with the
    // daemon's rights (root for docker), and its bind mounts (above) reach this machine's files.
    if (sub === 'run' || sub === 'exec' || sub === 'start') {
      const daemon = inv.name === 'podman' ? 'podman' : 'the docker daemon';
      handOver(inv, interp, { daemon, what: `${inv.name} ${sub}`, code: null, cwd: null, remote: true });
      return;
    }
    if (sub === 'create') return;
    const rest: Field[] = [];
    for (const o of p.options) if (o.value && !described.has(o.name)) rest.push(o.value);
    // `build CONTEXT` is read; other subcommands' operands are not described.
    if (sub !== 'build' && sub !== 'pull' && sub !== 'push' && sub !== 'tag' && sub !== 'rmi' && sub !== 'rm' && sub !== 'stop' && sub !== 'start' && sub !== 'logs' && sub !== 'inspect' && sub !== 'ps' && sub !== 'images' && sub !== 'kill') rest.push(...p.operands);
    unlisted(inv, interp, rest);
  },
};

export default command({
  names: ['docker', 'podman'],
  build: () => docker,
});

export const examples: readonly Example[] = [
  ['docker cp c:/out ../../dist', 'deny'],
  ['docker cp c:/out dist', 'allow'],
  ['docker run --rm -v /home/dev/repo:/w alpine true', 'ask'],
  ['docker run --rm -v /home/dev/repo:/w:ro alpine true', 'ask'],
  ['docker exec c touch /x', 'ask'],
  ['podman run --rm alpine true', 'ask'],
  ['docker ps', 'allow'],
  ['docker compose up -d', 'ask'],
  ['docker compose ps', 'allow'],
  ['docker build -o ../../out .', 'deny'],
  ['docker build -t x .', 'allow'],
];
