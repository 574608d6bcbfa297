/**
 * What exists in a simulated image's root filesystem, and how a missing executable fails the
 * way runc 1.1 words it through containerd 1.6 ("binary that does not exist" row of
 * /work/shared/guides/REAL-CONTAINERD.md: StartContainer UNKNOWN, container EXITED 128
 * StartError).
 */

/**
 * Every applet path of Debian's busybox-static 1.35 (`busybox --list-full`), which is what the
 * test image for real containerd links (test/containerd/image.ts), so a command that exists on
 * one runtime exists on the other.
 */
export const BUSYBOX_PATHS: ReadonlySet<string> = new Set(
  (
    '/bin/arch /bin/ash /bin/base64 /bin/busybox /bin/cat /bin/chgrp /bin/chmod /bin/chown ' +
    '/bin/cp /bin/cpio /bin/cttyhack /bin/date /bin/dd /bin/df /bin/dmesg /bin/dnsdomainname ' +
    '/bin/dumpkmap /bin/echo /bin/ed /bin/egrep /bin/false /bin/fatattr /bin/fgrep ' +
    '/bin/getopt /bin/grep /bin/gunzip /bin/gzip /bin/hostname /bin/ionice /bin/ipcalc ' +
    '/bin/kill /bin/link /bin/linux32 /bin/linux64 /bin/ln /bin/login /bin/ls /bin/lzop ' +
    '/bin/mkdir /bin/mknod /bin/mktemp /bin/more /bin/mount /bin/mt /bin/mv /bin/netstat ' +
    '/bin/nuke /bin/pidof /bin/ping /bin/ping6 /bin/ps /bin/pwd /bin/readlink /bin/resume ' +
    '/bin/rev /bin/rm /bin/rmdir /bin/rpm /bin/run-parts /bin/sed /bin/setpriv /bin/sh ' +
    '/bin/sleep /bin/stat /bin/stty /bin/su /bin/sync /bin/tar /bin/touch /bin/true ' +
    '/bin/umount /bin/uname /bin/uncompress /bin/usleep /bin/vi /bin/watch /bin/zcat /linuxrc ' +
    '/sbin/acpid /sbin/adjtimex /sbin/arp /sbin/blockdev /sbin/depmod /sbin/devmem ' +
    '/sbin/fdisk /sbin/findfs /sbin/freeramdisk /sbin/fstrim /sbin/getty /sbin/halt ' +
    '/sbin/hwclock /sbin/ifconfig /sbin/ifdown /sbin/ifup /sbin/init /sbin/insmod /sbin/ip ' +
    '/sbin/ipneigh /sbin/klogd /sbin/loadkmap /sbin/logread /sbin/losetup /sbin/lsmod ' +
    '/sbin/mdev /sbin/mkdosfs /sbin/mke2fs /sbin/mkswap /sbin/modinfo /sbin/modprobe ' +
    '/sbin/nameif /sbin/pivot_root /sbin/poweroff /sbin/reboot /sbin/rmmod /sbin/route ' +
    '/sbin/run-init /sbin/start-stop-daemon /sbin/sulogin /sbin/swapoff /sbin/swapon ' +
    '/sbin/switch_root /sbin/sysctl /sbin/syslogd /sbin/tc /sbin/tunctl /sbin/udhcpc ' +
    '/sbin/uevent /sbin/vconfig /sbin/watchdog /usr/bin/[ /usr/bin/[[ /usr/bin/ar ' +
    '/usr/bin/ascii /usr/bin/awk /usr/bin/basename /usr/bin/bc /usr/bin/blkdiscard ' +
    '/usr/bin/bunzip2 /usr/bin/bzcat /usr/bin/bzip2 /usr/bin/cal /usr/bin/chvt /usr/bin/clear ' +
    '/usr/bin/cmp /usr/bin/crc32 /usr/bin/crontab /usr/bin/cut /usr/bin/dc /usr/bin/deallocvt ' +
    '/usr/bin/diff /usr/bin/dirname /usr/bin/dos2unix /usr/bin/dpkg /usr/bin/dpkg-deb ' +
    '/usr/bin/du /usr/bin/dumpleases /usr/bin/env /usr/bin/expand /usr/bin/expr ' +
    '/usr/bin/factor /usr/bin/fallocate /usr/bin/find /usr/bin/fold /usr/bin/free ' +
    '/usr/bin/ftpget /usr/bin/ftpput /usr/bin/groups /usr/bin/head /usr/bin/hexdump ' +
    '/usr/bin/hostid /usr/bin/id /usr/bin/killall /usr/bin/last /usr/bin/less /usr/bin/logger ' +
    '/usr/bin/logname /usr/bin/lsscsi /usr/bin/lzcat /usr/bin/lzma /usr/bin/md5sum ' +
    '/usr/bin/microcom /usr/bin/mkfifo /usr/bin/mkpasswd /usr/bin/nc /usr/bin/nl ' +
    '/usr/bin/nproc /usr/bin/nsenter /usr/bin/nslookup /usr/bin/od /usr/bin/openvt ' +
    '/usr/bin/passwd /usr/bin/paste /usr/bin/patch /usr/bin/printf /usr/bin/realpath ' +
    '/usr/bin/renice /usr/bin/reset /usr/bin/rpm2cpio /usr/bin/seq /usr/bin/setkeycodes ' +
    '/usr/bin/setsid /usr/bin/sha1sum /usr/bin/sha256sum /usr/bin/sha3sum /usr/bin/sha512sum ' +
    '/usr/bin/shred /usr/bin/shuf /usr/bin/sort /usr/bin/ssl_client /usr/bin/strings ' +
    '/usr/bin/svc /usr/bin/svok /usr/bin/tac /usr/bin/tail /usr/bin/taskset /usr/bin/tee ' +
    '/usr/bin/telnet /usr/bin/test /usr/bin/tftp /usr/bin/time /usr/bin/timeout /usr/bin/top ' +
    '/usr/bin/tr /usr/bin/traceroute /usr/bin/traceroute6 /usr/bin/truncate /usr/bin/ts ' +
    '/usr/bin/tty /usr/bin/unexpand /usr/bin/uniq /usr/bin/unix2dos /usr/bin/unlink ' +
    '/usr/bin/unlzma /usr/bin/unshare /usr/bin/unxz /usr/bin/unzip /usr/bin/uptime ' +
    '/usr/bin/uudecode /usr/bin/uuencode /usr/bin/w /usr/bin/wc /usr/bin/wget /usr/bin/which ' +
    '/usr/bin/who /usr/bin/whoami /usr/bin/xargs /usr/bin/xxd /usr/bin/xz /usr/bin/xzcat ' +
    '/usr/bin/yes /usr/sbin/arping /usr/sbin/brctl /usr/sbin/chroot /usr/sbin/crond ' +
    '/usr/sbin/fsfreeze /usr/sbin/httpd /usr/sbin/i2cdetect /usr/sbin/i2cdump ' +
    '/usr/sbin/i2cget /usr/sbin/i2cset /usr/sbin/i2ctransfer /usr/sbin/loadfont /usr/sbin/mim ' +
    '/usr/sbin/nologin /usr/sbin/partprobe /usr/sbin/rdate /usr/sbin/telnetd ' +
    '/usr/sbin/ubirename /usr/sbin/udhcpd'
  ).split(' '),
);

/** Applet names, for PATH lookup. */
export const BUSYBOX_APPLETS: ReadonlySet<string> = new Set(
  [...BUSYBOX_PATHS].map((p) => p.slice(p.lastIndexOf('/') + 1)),
);

/** The simulator-only service binary the behaviour images carry (see CATALOGUE.md). */
export const SERVE_BINARY = '/usr/local/bin/serve';

export interface Rootfs {
  busybox: boolean;
  serve: boolean;
  /** Applet paths beyond Debian's busybox-static set (an upstream-defconfig busybox has pgrep). */
  extra?: ReadonlySet<string>;
}

/** Applets of upstream busybox's defconfig (the e2e and Docker Hub images) that Debian's build leaves out. */
export const UPSTREAM_BUSYBOX_EXTRA: ReadonlySet<string> = new Set([
  '/usr/bin/pgrep',
  '/usr/bin/pkill',
]);

/** Resolves argv[0] like execvp with PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin. */
export function resolveExecutable(rootfs: Rootfs, name: string): string | undefined {
  if (name.includes('/')) {
    if (rootfs.serve && name === SERVE_BINARY) return 'serve';
    if (rootfs.busybox && (BUSYBOX_PATHS.has(name) || rootfs.extra?.has(name)))
      return name.slice(name.lastIndexOf('/') + 1);
    return undefined;
  }
  if (rootfs.serve && name === 'serve') return 'serve';
  if (rootfs.busybox && (BUSYBOX_APPLETS.has(name) || name === 'busybox')) return name;
  if (rootfs.busybox && rootfs.extra && [...rootfs.extra].some((p) => p.endsWith(`/${name}`)))
    return name;
  return undefined;
}

/** The error StartContainer returns (and the container's message) when argv[0] is missing. */
export function startErrorMessage(name: string): string {
  const why = name.includes('/')
    ? `stat ${name}: no such file or directory`
    : 'executable file not found in $PATH';
  return (
    'failed to create containerd task: failed to create shim task: OCI runtime create failed: ' +
    `runc create failed: unable to start container process: exec: "${name}": ${why}: unknown`
  );
}
