// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <arpa/inet.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <net/if.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "netns.h"
#include "pcap.h"
#include "test_progs.h"
#include "test_util.h"

#define BPF_FS_MAGIC 0xcafe4a11

static int orig_netns = -1;

int xr_ensure_bpffs(void)
{
	struct statfs st;

	if (!statfs("/sys/fs/bpf", &st) && st.f_type == BPF_FS_MAGIC)
		return 0;
	mkdir("/sys/fs/bpf", 0700);
	if (mount("bpf", "/sys/fs/bpf", "bpf", 0, "mode=0700")) {
		test__log("mount bpffs: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int read_mac(const char *ns, const char *ifname, uint8_t mac[6])
{
	char cmd[160];
	unsigned m[6];
	FILE *f;
	int n;

	/* /sys shows the namespace it was mounted in, so ask ip instead. */
	snprintf(cmd, sizeof(cmd), "ip -n %s -br link show %s | awk '{print $3}'",
		 ns, ifname);
	f = popen(cmd, "r");
	if (!f)
		return -1;
	n = fscanf(f, "%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4],
		   &m[5]);
	pclose(f);
	if (n != 6)
		return -1;
	for (n = 0; n < 6; n++)
		mac[n] = (uint8_t)m[n];
	return 0;
}

static void init_names(struct xr_hosts *h, int mtu)
{
	int i;

	memset(h, 0, sizeof(*h));
	snprintf(h->ns[0], XR_NS_NAMELEN, "xrt%d-a", (int)getpid());
	snprintf(h->ns[1], XR_NS_NAMELEN, "xrt%d-b", (int)getpid());
	snprintf(h->ifname, sizeof(h->ifname), "xr0");
	h->mtu = mtu ? mtu : 1500;
	for (i = 0; i < 2; i++) {
		snprintf(h->ip4[i], sizeof(h->ip4[i]), "10.77.0.%d", i + 1);
		snprintf(h->ip6[i], sizeof(h->ip6[i]), "fd77::%d", i + 1);
	}
}

/* Addresses, link up, MAC and ifindex of host @i's xr0. */
static int configure_host(struct xr_hosts *h, int i)
{
	if (xr_sys("ip -n %s addr add %s/24 dev xr0 && "
		   "ip -n %s addr add %s/64 dev xr0 nodad && "
		   "ip -n %s link set xr0 up && ip -n %s link set lo up",
		   h->ns[i], h->ip4[i], h->ns[i], h->ip6[i], h->ns[i], h->ns[i]) ||
	    read_mac(h->ns[i], "xr0", h->mac[i]) || xr_hosts_enter(h, i)) {
		test__log("configuring %s failed", h->ns[i]);
		return -1;
	}
	h->ifindex[i] = if_nametoindex("xr0");
	xr_hosts_enter(h, -1);
	return 0;
}

int xr_hosts_create(struct xr_hosts *h, int mtu)
{
	int i;

	init_names(h, mtu);
	if (xr_sys("ip netns add %s && ip netns add %s", h->ns[0], h->ns[1]) ||
	    xr_sys("ip -n %s link add xr0 mtu %d type veth peer name xr0 netns %s mtu %d",
		   h->ns[0], h->mtu, h->ns[1], h->mtu)) {
		test__log("creating namespaces/veth failed");
		xr_hosts_destroy(h);
		return -1;
	}
	for (i = 0; i < 2; i++)
		if (configure_host(h, i)) {
			xr_hosts_destroy(h);
			return -1;
		}
	return 0;
}

/* Hosts 0 and 1 each joined by a veth (ra, rb) to the middle namespace. */
static int three_namespaces(const struct xr_hosts *h)
{
	return xr_sys("ip netns add %s && ip netns add %s && ip netns add %s",
		      h->ns[0], h->ns[1], h->ns[2]) ||
	       xr_sys("ip -n %s link add xr0 mtu %d type veth peer name ra netns %s mtu %d",
		      h->ns[0], h->mtu, h->ns[2], h->mtu) ||
	       xr_sys("ip -n %s link add xr0 mtu %d type veth peer name rb netns %s mtu %d",
		      h->ns[1], h->mtu, h->ns[2], h->mtu);
}

int xr_hosts_create_routed(struct xr_hosts *h, int mtu)
{
	int i;

	init_names(h, mtu);
	snprintf(h->ns[2], XR_NS_NAMELEN, "xrt%d-r", (int)getpid());
	for (i = 0; i < 2; i++) {
		snprintf(h->ip4[i], sizeof(h->ip4[i]), "10.77.%d.1", i + 1);
		snprintf(h->ip6[i], sizeof(h->ip6[i]), "fd77:%d::1", i + 1);
	}
	if (three_namespaces(h) ||
	    xr_sys("ip netns exec %s sh -c 'sysctl -qw net.ipv4.ip_forward=1 "
		   "net.ipv6.conf.all.forwarding=1 && "
		   "ip addr add 10.77.1.254/24 dev ra && ip addr add 10.77.2.254/24 dev rb && "
		   "ip addr add fd77:1::fe/64 dev ra nodad && ip addr add fd77:2::fe/64 dev rb nodad && "
		   "ip link set ra up && ip link set rb up'", h->ns[2])) {
		test__log("creating the routed topology failed");
		xr_hosts_destroy(h);
		return -1;
	}
	for (i = 0; i < 2; i++)
		if (configure_host(h, i) ||
		    xr_sys("ip -n %s route add default via 10.77.%d.254 && "
			   "ip -n %s -6 route add default via fd77:%d::fe",
			   h->ns[i], i + 1, h->ns[i], i + 1)) {
			xr_hosts_destroy(h);
			return -1;
		}
	return 0;
}

struct xr_relay {
	pthread_t thread;
	pthread_mutex_t lock;
	volatile bool stop;
	int fd[2];		/* [0] faces host 0, [1] faces host 1 */
	int ifindex[2];
	struct xr_relay_rules rules;
	struct xr_relay_counts c;
};

static bool in_list(const unsigned *l, unsigned n)
{
	int i;

	for (i = 0; i < XR_RELAY_MAX_RULES && l[i]; i++)
		if (l[i] == n)
			return true;
	return false;
}

static bool is_roce(const uint8_t *f, ssize_t len)
{
	uint16_t proto = f[12] << 8 | f[13];

	if (proto == 0x0800 && len >= 14 + 20 + 8)
		return f[23] == 17 && (f[36] << 8 | f[37]) == 4791;
	if (proto == 0x86dd && len >= 14 + 40 + 8)
		return f[20] == 17 && (f[56] << 8 | f[57]) == 4791;
	return false;
}

static void *relay_main(void *arg)
{
	struct xr_relay *r = arg;
	static __thread uint8_t buf[16384];

	while (!r->stop) {
		struct pollfd pfd[2] = { { .fd = r->fd[0], .events = POLLIN },
					 { .fd = r->fd[1], .events = POLLIN } };
		int d;

		if (poll(pfd, 2, 50) <= 0)
			continue;
		for (d = 0; d < 2; d++) {
			struct sockaddr_ll from, to = { .sll_family = AF_PACKET,
							 .sll_halen = ETH_ALEN };
			socklen_t fl = sizeof(from);
			ssize_t n;
			int copies = 1;

			if (!(pfd[d].revents & POLLIN))
				continue;
			n = recvfrom(r->fd[d], buf, sizeof(buf), MSG_DONTWAIT,
				     (struct sockaddr *)&from, &fl);
			if (n < 14 || from.sll_pkttype == PACKET_OUTGOING)
				continue;
			if (is_roce(buf, n)) {
				unsigned k;

				pthread_mutex_lock(&r->lock);
				k = ++r->c.seen[d];
				if (r->rules.drop_all[d] || in_list(r->rules.drop[d], k)) {
					r->c.dropped[d]++;
					copies = 0;
				} else if (in_list(r->rules.dup[d], k)) {
					r->c.duplicated[d]++;
					copies = 2;
				} else if (in_list(r->rules.corrupt[d], k)) {
					r->c.corrupted[d]++;
					buf[n - 10] ^= 0x20;	/* in the payload or header */
				}
				r->c.forwarded[d] += copies;
				if (r->rules.pcap && copies)
					xr_pcap_write_frame(r->rules.pcap, 0, buf, n);
				pthread_mutex_unlock(&r->lock);
			}
			to.sll_ifindex = r->ifindex[!d];
			memcpy(to.sll_addr, buf, ETH_ALEN);
			while (copies--)
				sendto(r->fd[!d], buf, n, 0, (struct sockaddr *)&to, sizeof(to));
		}
	}
	return NULL;
}

int xr_hosts_create_relay(struct xr_hosts *h, int mtu)
{
	struct xr_relay *r;
	int i;

	init_names(h, mtu);
	snprintf(h->ns[2], XR_NS_NAMELEN, "xrt%d-m", (int)getpid());
	if (three_namespaces(h) ||
	    xr_sys("ip -n %s link set ra up && ip -n %s link set rb up",
		   h->ns[2], h->ns[2])) {
		test__log("creating the relay topology failed");
		xr_hosts_destroy(h);
		return -1;
	}
	for (i = 0; i < 2; i++)
		if (configure_host(h, i)) {
			xr_hosts_destroy(h);
			return -1;
		}
	r = calloc(1, sizeof(*r));
	if (!r || xr_hosts_enter(h, 2)) {
		free(r);
		xr_hosts_destroy(h);
		return -1;
	}
	pthread_mutex_init(&r->lock, NULL);
	for (i = 0; i < 2; i++) {
		struct sockaddr_ll sll = { .sll_family = AF_PACKET,
					   .sll_protocol = htons(ETH_P_ALL) };

		r->ifindex[i] = if_nametoindex(i ? "rb" : "ra");
		r->fd[i] = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, htons(ETH_P_ALL));
		sll.sll_ifindex = r->ifindex[i];
		if (r->fd[i] < 0 || bind(r->fd[i], (struct sockaddr *)&sll, sizeof(sll)))
			test__log("relay socket: %s", strerror(errno));
	}
	xr_hosts_enter(h, -1);
	h->relay = r;
	if (pthread_create(&r->thread, NULL, relay_main, r)) {
		h->relay = NULL;
		free(r);
		xr_hosts_destroy(h);
		return -1;
	}
	return 0;
}

void xr_relay_set(struct xr_hosts *h, const struct xr_relay_rules *rules)
{
	struct xr_relay *r = h->relay;

	pthread_mutex_lock(&r->lock);
	r->rules = *rules;
	memset(&r->c, 0, sizeof(r->c));
	pthread_mutex_unlock(&r->lock);
}

void xr_relay_counts(struct xr_hosts *h, struct xr_relay_counts *c)
{
	struct xr_relay *r = h->relay;

	pthread_mutex_lock(&r->lock);
	*c = r->c;
	pthread_mutex_unlock(&r->lock);
}

void xr_hosts_destroy(struct xr_hosts *h)
{
	int i;

	xr_hosts_enter(h, -1);
	if (h->relay) {
		h->relay->stop = true;
		pthread_join(h->relay->thread, NULL);
		close(h->relay->fd[0]);
		close(h->relay->fd[1]);
		free(h->relay);
		h->relay = NULL;
	}
	for (i = 0; i < 3; i++)
		if (h->ns[i][0])
			xr_sys("ip netns del %s 2>/dev/null", h->ns[i]);
}

int xr_hosts_enter(const struct xr_hosts *h, int host)
{
	char path[96];
	int fd, ret;

	if (orig_netns < 0)
		orig_netns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (host < 0)
		return orig_netns >= 0 ? setns(orig_netns, CLONE_NEWNET) : -1;
	snprintf(path, sizeof(path), "/run/netns/%s", h->ns[host]);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		test__log("open %s: %s", path, strerror(errno));
		return -1;
	}
	ret = setns(fd, CLONE_NEWNET);
	if (ret)
		test__log("setns %s: %s", path, strerror(errno));
	close(fd);
	return ret;
}

int xr_hosts_sys(const struct xr_hosts *h, int host, const char *fmt, ...)
{
	char cmd[1800];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return xr_sys("nsenter --net=/run/netns/%s sh -c '%s'", h->ns[host], cmd);
}

int xr_hosts_capture(const struct xr_hosts *h, int host, char *out, size_t len,
		     const char *fmt, ...)
{
	char cmd[1800], full[2000];
	size_t n = 0;
	va_list ap;
	FILE *f;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	snprintf(full, sizeof(full), "nsenter --net=/run/netns/%s sh -c '%s' 2>&1",
		 h->ns[host], cmd);
	out[0] = '\0';
	f = popen(full, "r");
	if (!f)
		return -1;
	while (n + 1 < len) {
		size_t r = fread(out + n, 1, len - 1 - n, f);

		if (!r)
			break;
		n += r;
	}
	out[n] = '\0';
	/* Drain what did not fit so the command does not block on a full pipe. */
	while (fgetc(f) != EOF)
		;
	st = pclose(f);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

int xr_hosts_send_frame(const struct xr_hosts *h, int host, const void *frame,
			size_t len)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET,
				   .sll_ifindex = h->ifindex[host],
				   .sll_halen = ETH_ALEN };
	int fd, ret = 0;

	if (xr_hosts_enter(h, host))
		return -1;
	fd = socket(AF_PACKET, SOCK_RAW, 0);
	xr_hosts_enter(h, -1);
	if (fd < 0)
		return -errno;
	memcpy(sll.sll_addr, frame, ETH_ALEN);
	if (sendto(fd, frame, len, 0, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		ret = -errno;
	close(fd);
	return ret;
}
