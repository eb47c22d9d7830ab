import { type Example, command } from '../spec.js';
import { readOnly } from '../kinds.js';

export default command({
  names: ['tac', 'nl', 'head', 'tail', 'more', 'dir', 'vdir', 'stat', 'file', 'wc', 'du', 'df', 'grep', 'egrep', 'fgrep', 'zgrep', 'zcat', 'bzcat', 'xzcat', 'zstdcat', 'zless', 'ag', 'ack', 'cut', 'tr', 'paste', 'join', 'comm', 'diff', 'diff3', 'cmp', 'colordiff', 'expand', 'unexpand', 'fold', 'fmt', 'pr', 'column', 'rev', 'od', 'hexdump', 'strings', 'base32', 'base64', 'basenc', 'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'shasum', 'md5', 'jq', 'gojq', 'which', 'whereis', 'whatis', 'apropos', 'man', 'info', 'pathchk', 'date', 'cal', 'id', 'groups', 'who', 'w', 'users', 'last', 'hostname', 'uname', 'arch', 'nproc', 'uptime', 'free', 'vmstat', 'iostat', 'ps', 'pgrep', 'pidof', 'top', 'htop', 'lsof', 'lscpu', 'lsblk', 'lsusb', 'lspci', 'lsmod', 'getconf', 'locale', 'printenv', 'tput', 'tty', 'stty', 'clear', 'reset', 'seq', 'yes', 'sleep', 'expr', 'factor', 'numfmt', 'tsort', 'look', 'bc', 'getent', 'nslookup', 'dig', 'host', 'ping', 'ping6', 'traceroute', 'ss', 'netstat', 'ip', 'ifconfig', 'route', 'pkill', 'killall', 'xdg-open', 'open', 'pbcopy', 'pbpaste', 'xclip', 'xsel', 'wl-copy', 'wl-paste', 'cowsay', 'figlet', 'lolcat', 'fortune', 'shellcheck', 'checkbashisms', 'hadolint', 'yamllint', 'ldd', 'nm', 'objdump', 'readelf', 'size', 'locate', 'mlocate', 'plocate', 'tldr', 'lsattr', 'getfacl', 'namei', 'findmnt', 'mountpoint', 'dmesg', 'journalctl', 'systemd-analyze', 'nvidia-smi', 'dust', 'duf', 'bat', 'batcat', 'exa', 'eza', 'lsd', 'fzf', 'delta', 'difft', 'jless', 'glow'],
  build: () => readOnly,
});

export const examples: readonly Example[] = [
  ['tac ../../README.md', 'allow'],
  ['head -5 ../../README.md', 'allow'],
  ['grep -r TODO ../..', 'allow'],
  ['stat ../b2', 'allow'],
  ['diff ../../README.md README.md', 'allow'],
  ['jq . ../../package.json', 'allow'],
];
