// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <xdp/libxdp.h>

#include "loader.h"
#include "xroce_xdp.skel.h"

#define BPF_FS_MAGIC 0xcafe4a11
#define XR_PROG_NAME "xroce_xdp"

/* Maps pinned per interface; the per-CPU scratch is private to the program. */
static const char *const pinned_maps[] = { "xr_stats", "xr_info", "xr_qps",
					   "xr_xsks", "xr_dev_stats", "xr_qp_stats" };
#define N_PINNED (sizeof(pinned_maps) / sizeof(pinned_maps[0]))

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

const char *xr_pin_root(void)
{
	const char *r = getenv("XROCE_BPFFS");

	return r && *r ? r : XR_PIN_ROOT_DEFAULT;
}

static int ns_ino(const char *path, ino_t *ino, dev_t *dev)
{
	struct stat st;

	*ino = 0;
	*dev = 0;
	if (stat(path, &st))
		return -1;
	*ino = st.st_ino;
	*dev = st.st_dev;
	return 0;
}

/* "" in the initial namespace, "@name" for /run/netns/name, else "@ns<ino>". */
static void netns_suffix(char *buf, size_t len)
{
	ino_t self, init, ino;
	dev_t sdev, idev, dev;
	struct dirent *e;
	DIR *d;

	buf[0] = '\0';
	if (ns_ino("/proc/thread-self/ns/net", &self, &sdev))
		return;
	if (!ns_ino("/proc/1/ns/net", &init, &idev) && init == self && idev == sdev)
		return;
	d = opendir("/run/netns");
	while (d && (e = readdir(d))) {
		char p[300];

		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/run/netns/%s", e->d_name);
		if (!ns_ino(p, &ino, &dev) && ino == self && dev == sdev) {
			snprintf(buf, len, "@%s", e->d_name);
			closedir(d);
			return;
		}
	}
	if (d)
		closedir(d);
	snprintf(buf, len, "@ns%lu", (unsigned long)self);
}

uint64_t xr_netns_ino(void)
{
	ino_t ino;
	dev_t dev;

	return ns_ino("/proc/thread-self/ns/net", &ino, &dev) ? 0 : ino;
}

int xr_pin_dir(const char *ifname, char *buf, size_t len)
{
	char sfx[280];
	int n;

	netns_suffix(sfx, sizeof(sfx));
	n = snprintf(buf, len, "%s/%s%s", xr_pin_root(), ifname, sfx);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

bool xr_private_mount_ns(void)
{
	ino_t self, init;
	dev_t sdev, idev;

	if (ns_ino("/proc/self/ns/mnt", &self, &sdev) ||
	    ns_ino("/proc/1/ns/mnt", &init, &idev))
		return false;
	return self != init || sdev != idev;
}

static int mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	char *p;

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(tmp, 0700) && errno != EEXIST)
		return -errno;
	return 0;
}

int xr_bpffs_prepare(char *err, size_t errlen)
{
	struct statfs st;
	int ret;

	if (statfs("/sys/fs/bpf", &st) || st.f_type != BPF_FS_MAGIC) {
		mkdir("/sys/fs/bpf", 0700);
		if (mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700"))
			return fail(err, errlen, -errno,
				    "cannot mount bpffs on /sys/fs/bpf: %s%s",
				    strerror(errno),
				    errno == EPERM ? " (run as root)" : "");
	}
	ret = mkdir_p(xr_pin_root());
	if (ret)
		return fail(err, errlen, ret, "cannot create %s: %s%s",
			    xr_pin_root(), strerror(-ret),
			    ret == -EACCES || ret == -EPERM ? " (run as root)" : "");
	if (statfs(xr_pin_root(), &st) || st.f_type != BPF_FS_MAGIC)
		return fail(err, errlen, -EINVAL,
			    "%s is not on a bpffs (XROCE_BPFFS must point into one)",
			    xr_pin_root());
	return 0;
}

/* flock() on the pin root serialises attach/detach of concurrent commands. */
static int lock_root(char *err, size_t errlen)
{
	int fd = open(xr_pin_root(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return fail(err, errlen, -errno, "cannot open %s: %s", xr_pin_root(),
			    strerror(errno));
	if (flock(fd, LOCK_EX)) {
		int e = -errno;

		close(fd);
		return fail(err, errlen, e, "cannot lock %s: %s", xr_pin_root(),
			    strerror(-e));
	}
	return fd;
}

static void unlock_root(int fd)
{
	if (fd >= 0) {
		flock(fd, LOCK_UN);
		close(fd);
	}
}

static void remove_pins(const char *dir)
{
	char p[PATH_MAX + 32];
	struct dirent *e;
	DIR *d = opendir(dir);

	/* Everything xroce pinned here, including maps of older versions. */
	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s", dir, e->d_name);
		unlink(p);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

int xr_pin_open(const char *dir, const char *map)
{
	char p[PATH_MAX + 32];
	int fd;

	snprintf(p, sizeof(p), "%s/%s", dir, map);
	fd = bpf_obj_get(p);
	return fd < 0 ? -errno : fd;
}

int xr_pin_read(const char *dir, const char *map, void *value)
{
	__u32 zero = 0;
	int fd = xr_pin_open(dir, map), ret;

	if (fd < 0)
		return fd;
	ret = bpf_map_lookup_elem(fd, &zero, value) ? -errno : 0;
	close(fd);
	return ret;
}

bool xr_pid_alive(__u32 pid)
{
	return pid && (!kill((pid_t)pid, 0) || errno == EPERM);
}

static int read_info(const char *dir, struct xr_attach_info *info)
{
	return xr_pin_read(dir, "xr_info", info);
}

/*
 * The xroce program on @ifindex: the one with @prog_id if non-zero, else
 * any program named xroce_xdp. Returns it (to close by the caller) and the
 * attach mode, or NULL.
 */
static struct xdp_program *find_attached(int ifindex, __u32 prog_id,
					 enum xdp_attach_mode *mode,
					 struct xdp_multiprog **mp_out)
{
	struct xdp_multiprog *mp;
	struct xdp_program *p = NULL;

	*mp_out = NULL;
	mp = xdp_multiprog__get_from_ifindex(ifindex);
	if (!mp || libxdp_get_error(mp))
		return NULL;
	*mode = xdp_multiprog__attach_mode(mp);
	if (xdp_multiprog__is_legacy(mp)) {
		p = xdp_multiprog__main_prog(mp);
		if (p && (prog_id ? xdp_program__id(p) == prog_id :
			  !strcmp(xdp_program__name(p), XR_PROG_NAME))) {
			*mp_out = mp;
			return p;
		}
		xdp_multiprog__close(mp);
		return NULL;
	}
	while ((p = xdp_multiprog__next_prog(p, mp))) {
		if (prog_id ? xdp_program__id(p) == prog_id :
		    !strcmp(xdp_program__name(p), XR_PROG_NAME)) {
			*mp_out = mp;
			return p;
		}
	}
	xdp_multiprog__close(mp);
	return NULL;
}

static bool is_attached(int ifindex, __u32 prog_id)
{
	struct xdp_multiprog *mp;
	enum xdp_attach_mode mode;

	if (!find_attached(ifindex, prog_id, &mode, &mp))
		return false;
	xdp_multiprog__close(mp);
	return true;
}

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static bool has_cap(int cap)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2] = { 0 };

	if (syscall(SYS_capget, &h, d))
		return false;
	return d[cap / 32].effective & (1u << (cap % 32));
}

/* XDP attach needs CAP_NET_ADMIN, loading BPF CAP_BPF (or CAP_SYS_ADMIN). */
static int check_privileges(const char *what, char *err, size_t errlen)
{
	if (has_cap(CAP_NET_ADMIN) && (has_cap(CAP_BPF) || has_cap(CAP_SYS_ADMIN)))
		return 0;
	return fail(err, errlen, -EPERM,
		    "permission denied: %s XDP programs needs CAP_NET_ADMIN and "
		    "CAP_BPF (run as root)", what);
}

static int libxdp_err(char *err, size_t errlen, int ret, const char *what,
		      const char *ifname, enum xr_attach_mode mode)
{
	char buf[256];

	libxdp_strerror(ret, buf, sizeof(buf));
	if (ret == -EOPNOTSUPP && mode == XR_ATTACH_NATIVE)
		return fail(err, errlen, ret,
			    "%s %s: %s (the driver has no native XDP; try --mode skb)",
			    what, ifname, buf);
	if (ret == -EPERM || ret == -EACCES)
		return fail(err, errlen, ret, "%s %s: %s (run as root)", what,
			    ifname, buf);
	if (ret == -EBUSY)
		return fail(err, errlen, ret,
			    "%s %s: %s: another XDP program holds the interface "
			    "without libxdp's dispatcher (or this kernel cannot run "
			    "the dispatcher), so the two cannot share it; see "
			    "'xdp-loader status %s'", what, ifname, buf, ifname);
	return fail(err, errlen, ret, "%s %s: %s", what, ifname, buf);
}

static int pin_maps(struct xroce_xdp *skel, const char *dir, char *err,
		    size_t errlen)
{
	char p[PATH_MAX + 32];
	size_t i;
	int ret;

	ret = mkdir_p(dir);
	if (ret)
		return fail(err, errlen, ret, "cannot create %s: %s", dir,
			    strerror(-ret));
	for (i = 0; i < N_PINNED; i++) {
		struct bpf_map *m = bpf_object__find_map_by_name(skel->obj,
								 pinned_maps[i]);

		snprintf(p, sizeof(p), "%s/%s", dir, pinned_maps[i]);
		if (!m || bpf_map__pin(m, p))
			return fail(err, errlen, -errno ? -errno : -ENOENT,
				    "cannot pin %s: %s", p, strerror(errno));
	}
	return 0;
}

int xr_loader_attach(const char *ifname, const struct xr_attach_opts *o,
		     char *err, size_t errlen)
{
	enum xdp_attach_mode xmode = o->mode == XR_ATTACH_SKB ? XDP_MODE_SKB :
							       XDP_MODE_NATIVE;
	struct xr_attach_info info = { 0 };
	struct xdp_program *prog = NULL;
	struct xroce_xdp *skel = NULL;
	char dir[PATH_MAX];
	int ifindex, lock, ret;
	__u32 zero = 0;

	ifindex = if_nametoindex(ifname);
	if (!ifindex)
		return fail(err, errlen, -ENODEV,
			    "no interface '%s' in this network namespace", ifname);
	ret = check_privileges("attaching", err, errlen);
	if (ret)
		return ret;
	ret = xr_bpffs_prepare(err, errlen);
	if (ret)
		return ret;
	lock = lock_root(err, errlen);
	if (lock < 0)
		return lock;
	ret = xr_pin_dir(ifname, dir, sizeof(dir));
	if (ret) {
		fail(err, errlen, ret, "interface name too long");
		goto out;
	}

	if (!access(dir, F_OK)) {
		if (!read_info(dir, &info) && info.ifindex == (__u32)ifindex &&
		    is_attached(ifindex, info.prog_id)) {
			ret = fail(err, errlen, -EEXIST,
				   "xroce is already attached to %s (program id %u); "
				   "run 'xroce detach %s' first", ifname,
				   info.prog_id, ifname);
			goto out;
		}
		/* Left over from an interface or program that is gone. */
		remove_pins(dir);
	}
	if (is_attached(ifindex, 0)) {
		ret = fail(err, errlen, -EEXIST,
			   "an xroce program is attached to %s but its pins are "
			   "missing (attached from 'ip netns exec'?); "
			   "'xroce detach %s' removes it", ifname, ifname);
		goto out;
	}

	skel = xroce_xdp__open();
	if (!skel) {
		ret = fail(err, errlen, -errno, "cannot open the BPF object: %s",
			   strerror(errno));
		goto out;
	}
	skel->rodata->xr_cfg.icrc_check = o->icrc_check;
	{
		DECLARE_LIBXDP_OPTS(xdp_program_opts, popts, .obj = skel->obj,
				    .prog_name = XR_PROG_NAME);

		prog = xdp_program__create(&popts);
	}
	ret = libxdp_get_error(prog);
	if (ret) {
		prog = NULL;
		libxdp_err(err, errlen, ret, "cannot prepare the program for",
			   ifname, o->mode);
		goto out;
	}
	ret = xdp_program__attach(prog, ifindex, xmode, 0);
	if (ret) {
		libxdp_err(err, errlen, ret, "cannot attach to", ifname, o->mode);
		goto out;
	}

	{
		struct xdp_multiprog *mp = xdp_multiprog__get_from_ifindex(ifindex);

		if (mp && !libxdp_get_error(mp)) {
			if (xdp_multiprog__is_legacy(mp))
				fprintf(stderr,
					"xroce: note: %s runs xroce as its only XDP program: "
					"this kernel cannot load libxdp's dispatcher "
					"(freplace), so no other program can join it\n",
					ifname);
			xdp_multiprog__close(mp);
		}
	}
	ret = pin_maps(skel, dir, err, errlen);
	if (!ret) {
		struct timespec now;

		clock_gettime(CLOCK_REALTIME, &now);
		info.ifindex = ifindex;
		info.prog_id = xdp_program__id(prog);
		info.netns_ino = xr_netns_ino();
		info.attach_time = now.tv_sec;
		info.mode = o->mode;
		info.icrc_check = o->icrc_check;
		if (bpf_map_update_elem(bpf_map__fd(skel->maps.xr_info), &zero,
					&info, 0))
			ret = fail(err, errlen, -errno, "cannot write xr_info: %s",
				   strerror(errno));
	}
	if (ret) {
		/* Nothing half-attached: undo the attachment and the pins. */
		xdp_program__detach(prog, ifindex, xmode, 0);
		xr_pin_dir(ifname, dir, sizeof(dir));
		remove_pins(dir);
	}
out:
	if (prog)
		xdp_program__close(prog);
	xroce_xdp__destroy(skel);
	unlock_root(lock);
	return ret;
}

int xr_loader_detach(const char *ifname, char *err, size_t errlen)
{
	struct xr_attach_info info = { 0 };
	struct xdp_multiprog *mp = NULL;
	enum xdp_attach_mode mode;
	struct xdp_program *p;
	char dir[PATH_MAX];
	int ifindex, lock, ret = 0;
	bool have_pins;

	ret = check_privileges("detaching", err, errlen);
	if (ret)
		return ret;
	ret = xr_bpffs_prepare(err, errlen);
	if (ret)
		return ret;
	if (xr_pin_dir(ifname, dir, sizeof(dir)))
		return fail(err, errlen, -ENAMETOOLONG, "interface name too long");
	lock = lock_root(err, errlen);
	if (lock < 0)
		return lock;
	have_pins = !access(dir, F_OK);
	ifindex = if_nametoindex(ifname);
	if (!ifindex) {
		if (have_pins) {
			remove_pins(dir);
			fprintf(stderr, "xroce: %s no longer exists; removed its pins\n",
				ifname);
		} else {
			ret = fail(err, errlen, -ENODEV,
				   "no interface '%s' in this network namespace",
				   ifname);
		}
		goto out;
	}
	if (have_pins)
		read_info(dir, &info);
	p = find_attached(ifindex, info.ifindex == (__u32)ifindex ? info.prog_id : 0,
			  &mode, &mp);
	if (!p && info.prog_id)
		p = find_attached(ifindex, 0, &mode, &mp);
	if (!p) {
		if (have_pins)
			remove_pins(dir);
		ret = fail(err, errlen, -ENOENT, "xroce is not attached to %s%s",
			   ifname, have_pins ? " (removed stale pins)" : "");
		goto out;
	}
	ret = xdp_program__detach(p, ifindex, mode, 0);
	if (ret) {
		libxdp_err(err, errlen, ret, "cannot detach from", ifname,
			   XR_ATTACH_NATIVE);
		goto out;
	}
	remove_pins(dir);
out:
	if (mp)
		xdp_multiprog__close(mp);
	unlock_root(lock);
	return ret;
}

static int read_counters(const char *dir, struct xr_stat_value *out)
{
	struct xr_stats *percpu;
	int fd, ncpus, c, i, ret = 0;
	__u32 zero = 0;

	memset(out, 0, XR_STAT_MAX * sizeof(*out));
	fd = xr_pin_open(dir, "xr_stats");
	if (fd < 0)
		return fd;
	ncpus = libbpf_num_possible_cpus();
	percpu = calloc(ncpus, sizeof(*percpu));
	if (!percpu) {
		close(fd);
		return -ENOMEM;
	}
	if (bpf_map_lookup_elem(fd, &zero, percpu)) {
		ret = -errno;
	} else {
		for (c = 0; c < ncpus; c++) {
			const struct xr_stat_value *v = (const void *)&percpu[c];

			for (i = 0; i < XR_STAT_MAX; i++) {
				out[i].packets += v[i].packets;
				out[i].bytes += v[i].bytes;
			}
		}
	}
	free(percpu);
	close(fd);
	return ret;
}

/* The engine's counters, as libxroce left them in the pinned arrays. */
static void read_engine(const char *dir, struct xr_iface_status *st)
{
	struct xr_qp_counters qc;
	__u32 k;
	int fd, qfd;

	st->has_engine = !xr_pin_read(dir, "xr_dev_stats", &st->engine);
	if (!st->has_engine)
		return;
	fd = xr_pin_open(dir, "xr_qp_stats");
	if (fd < 0)
		return;
	qfd = xr_pin_open(dir, "xr_qps");
	for (k = 0; k < XR_MAX_QP_STATS; k++) {
		struct xr_qp_counters *nq;
		struct xr_qp_entry *ne;

		if (bpf_map_lookup_elem(fd, &k, &qc) || !qc.qpn)
			continue;
		nq = realloc(st->qps, (st->nqps + 1) * sizeof(*nq));
		ne = realloc(st->qp_entries, (st->nqps + 1) * sizeof(*ne));
		if (nq)
			st->qps = nq;
		if (ne)
			st->qp_entries = ne;
		if (!nq || !ne)
			break;
		st->qps[st->nqps] = qc;
		memset(&ne[st->nqps], 0, sizeof(*ne));
		if (qfd >= 0)
			bpf_map_lookup_elem(qfd, &qc.qpn, &ne[st->nqps]);
		st->nqps++;
	}
	close(fd);
	if (qfd >= 0)
		close(qfd);
}

void xr_loader_status_free(struct xr_iface_status *st, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		free(st[i].qps);
		free(st[i].qp_entries);
	}
	free(st);
}

static void fill_status(struct xr_iface_status *st, const char *ifname,
			const char *dir)
{
	memset(st, 0, sizeof(*st));
	snprintf(st->ifname, sizeof(st->ifname), "%s", ifname);
	snprintf(st->pin_dir, sizeof(st->pin_dir), "%s", dir);
	st->ifindex = if_nametoindex(ifname);
	read_info(dir, &st->info);
	read_counters(dir, st->counters);
	read_engine(dir, st);
	st->attached = st->ifindex && st->info.ifindex == (__u32)st->ifindex &&
		       is_attached(st->ifindex, st->info.prog_id);
}

int xr_loader_status(const char *ifname, struct xr_iface_status **out, int *n,
		     char *err, size_t errlen)
{
	char sfx[280], dir[PATH_MAX];
	struct xr_iface_status *v = NULL;
	struct dirent *e;
	int cnt = 0;
	DIR *d;

	*out = NULL;
	*n = 0;
	if (ifname) {
		if (xr_pin_dir(ifname, dir, sizeof(dir)) || access(dir, F_OK)) {
			if (!if_nametoindex(ifname))
				return fail(err, errlen, -ENODEV,
					    "no interface '%s' in this network namespace",
					    ifname);
			return fail(err, errlen, -ENOENT,
				    "xroce is not attached to %s ('xroce attach %s')",
				    ifname, ifname);
		}
		v = calloc(1, sizeof(*v));
		if (!v)
			return -ENOMEM;
		fill_status(v, ifname, dir);
		*out = v;
		*n = 1;
		return 0;
	}
	netns_suffix(sfx, sizeof(sfx));
	d = opendir(xr_pin_root());
	if (!d)
		return 0;	/* nothing was ever attached */
	while ((e = readdir(d))) {
		char name[64];
		char *at;
		struct xr_iface_status *nv;

		if (e->d_name[0] == '.' || strlen(e->d_name) >= sizeof(name))
			continue;
		snprintf(name, sizeof(name), "%s", e->d_name);
		at = strchr(name, '@');
		/* Only attachments of this network namespace. */
		if (strcmp(at ? at : "", sfx))
			continue;
		if (at)
			*at = '\0';
		nv = realloc(v, (cnt + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		snprintf(dir, sizeof(dir), "%s/%s", xr_pin_root(), e->d_name);
		fill_status(&v[cnt++], name, dir);
	}
	closedir(d);
	*out = v;
	*n = cnt;
	return 0;
}
