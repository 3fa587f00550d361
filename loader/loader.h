/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Attaching xroce's XDP program to an interface and finding it again.
 *
 * Pin layout (root: $XROCE_BPFFS, default /sys/fs/bpf/xroce):
 *
 *   <root>/<ifname>              interface in the initial network namespace
 *   <root>/<ifname>@<netns>      interface in a named namespace (/run/netns/<netns>)
 *   <root>/<ifname>@ns<inode>    interface in an unnamed namespace
 *
 * Each directory holds the program's maps (xr_stats, xr_info, ...), pinned
 * by name. The program itself is held by libxdp's dispatcher pins
 * (/sys/fs/bpf/xdp/, $LIBXDP_BPFFS). Every mutating operation holds an
 * exclusive flock() on the root directory.
 */
#ifndef XROCE_LOADER_H
#define XROCE_LOADER_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include <xroce/map_types.h>

#define XR_PIN_ROOT_DEFAULT "/sys/fs/bpf/xroce"

struct xr_attach_opts {
	bool icrc_check;
	enum xr_attach_mode mode;
};

struct xr_iface_status {
	char ifname[32];
	char pin_dir[PATH_MAX];
	int ifindex;		/* 0: the interface is gone */
	bool attached;		/* the program is still on the interface */
	struct xr_attach_info info;
	struct xr_stat_value counters[XR_STAT_MAX];	/* summed over CPUs */
	bool has_engine;		/* the attachment has engine counters */
	struct xr_dev_counters engine;
	struct xr_qp_counters *qps;	/* QPs with counters (qpn != 0) */
	struct xr_qp_entry *qp_entries;	/* their xr_qps entries (qpn 0: none) */
	int nqps;
};

/* Errors are negative errno values; @err gets a message naming the fix. */
int xr_loader_attach(const char *ifname, const struct xr_attach_opts *o,
		     char *err, size_t errlen);
int xr_loader_detach(const char *ifname, char *err, size_t errlen);

/*
 * Status of one interface (@ifname) or of every attachment in the current
 * network namespace (@ifname NULL). *out is malloc'ed; *n entries.
 */
int xr_loader_status(const char *ifname, struct xr_iface_status **out, int *n,
		     char *err, size_t errlen);

/* Frees what xr_loader_status() returned. */
void xr_loader_status_free(struct xr_iface_status *st, int n);

/* The pin root ($XROCE_BPFFS or the default). */
const char *xr_pin_root(void);

/* The pin directory of @ifname in the current network namespace. */
int xr_pin_dir(const char *ifname, char *buf, size_t len);

/* A map pinned in @dir: its fd, or -errno. */
int xr_pin_open(const char *dir, const char *map);
/* Element 0 of a map pinned in @dir into @value; 0 or -errno. */
int xr_pin_read(const char *dir, const char *map, void *value);

/* Whether process @pid exists (0: no process). */
bool xr_pid_alive(__u32 pid);

/* Inode of the calling thread's network namespace (0 if unknown). */
uint64_t xr_netns_ino(void);

/* Mounts bpffs at /sys/fs/bpf if needed and creates the pin root. */
int xr_bpffs_prepare(char *err, size_t errlen);

/* Warns (returns true) when bpffs pins made here vanish with the process. */
bool xr_private_mount_ns(void);

#endif
