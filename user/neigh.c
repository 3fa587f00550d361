// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <errno.h>
#include <net/if.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <libmnl/libmnl.h>
#include <linux/if_arp.h>
#include <linux/neighbour.h>
#include <linux/rtnetlink.h>

#include "neigh.h"

struct neigh_query {
	int ifindex;
	int family;
	const uint8_t *ip;
	uint8_t mac[6];
	int found;
};

/* Where mnl_attr_parse() files each attribute up to @max by type. */
struct attr_table {
	const struct nlattr **tb;
	int max;
};

static int table_attr(const struct nlattr *a, void *data)
{
	struct attr_table *t = data;

	if (mnl_attr_type_valid(a, t->max) >= 0)
		t->tb[mnl_attr_get_type(a)] = a;
	return MNL_CB_OK;
}

static int neigh_cb(const struct nlmsghdr *nlh, void *data)
{
	struct neigh_query *q = data;
	const struct nlattr *tb[NDA_MAX + 1] = { 0 };
	struct ndmsg *nd = mnl_nlmsg_get_payload(nlh);
	size_t alen = q->family == AF_INET ? 4 : 16;

	if (nd->ndm_ifindex != q->ifindex || nd->ndm_family != q->family)
		return MNL_CB_OK;
	/* Only entries whose MAC can be trusted now. */
	if (!(nd->ndm_state & (NUD_REACHABLE | NUD_STALE | NUD_DELAY | NUD_PROBE |
			       NUD_PERMANENT | NUD_NOARP)))
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*nd), table_attr,
		       &(struct attr_table){ tb, NDA_MAX });
	if (!tb[NDA_DST] || !tb[NDA_LLADDR] ||
	    mnl_attr_get_payload_len(tb[NDA_DST]) != alen ||
	    mnl_attr_get_payload_len(tb[NDA_LLADDR]) != 6)
		return MNL_CB_OK;
	if (memcmp(mnl_attr_get_payload(tb[NDA_DST]), q->ip, alen))
		return MNL_CB_OK;
	memcpy(q->mac, mnl_attr_get_payload(tb[NDA_LLADDR]), 6);
	q->found = 1;
	return MNL_CB_OK;
}

int xr_neigh_open(struct xr_neigh *n)
{
	n->udp4 = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	n->udp6 = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	n->nl = mnl_socket_open(NETLINK_ROUTE);
	if (!n->nl || mnl_socket_bind(n->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		int ret = -errno;

		xr_neigh_close(n);
		return ret;
	}
	n->seq = time(NULL);
	return 0;
}

void xr_neigh_close(struct xr_neigh *n)
{
	if (n->nl)
		mnl_socket_close(n->nl);
	if (n->udp4 >= 0)
		close(n->udp4);
	if (n->udp6 >= 0)
		close(n->udp6);
	n->nl = NULL;
	n->udp4 = n->udp6 = -1;
}

static struct nlmsghdr *nl_header(struct xr_neigh *n, char *buf, uint16_t type,
				  uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++n->seq;
	return nlh;
}

/*
 * Sends the request in @buf and runs @cb on the answer: every part of it
 * for a dump (until NLMSG_DONE), the one message otherwise.
 */
static int nl_talk(struct xr_neigh *n, char *buf, size_t len, mnl_cb_t cb, void *data)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	unsigned int seq = nlh->nlmsg_seq, portid = mnl_socket_get_portid(n->nl);
	bool dump = nlh->nlmsg_flags & NLM_F_DUMP;
	int ret;

	if (mnl_socket_sendto(n->nl, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	ret = mnl_socket_recvfrom(n->nl, buf, len);
	if (ret > 0 && !dump)
		return mnl_cb_run(buf, ret, seq, portid, cb, data) < 0 ? -errno : 0;
	while (ret > 0) {
		ret = mnl_cb_run(buf, ret, seq, portid, cb, data);
		if (ret <= MNL_CB_STOP)
			break;
		ret = mnl_socket_recvfrom(n->nl, buf, len);
	}
	return ret < 0 ? -errno : 0;
}

static int neigh_lookup(struct xr_neigh *n, struct neigh_query *q)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = nl_header(n, buf, RTM_GETNEIGH, NLM_F_DUMP);
	struct ndmsg *nd = mnl_nlmsg_put_extra_header(nlh, sizeof(*nd));

	nd->ndm_family = q->family;
	return nl_talk(n, buf, sizeof(buf), neigh_cb, q);
}

struct route_query {
	int family;
	int oif;
	uint8_t gw[16];
	int has_gw;
	int found;
};

static int route_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlattr *tb[RTA_MAX + 1] = { 0 };
	struct route_query *q = data;
	struct rtmsg *rt = mnl_nlmsg_get_payload(nlh);
	size_t alen = q->family == AF_INET ? 4 : 16;

	if (nlh->nlmsg_type != RTM_NEWROUTE || rt->rtm_family != q->family)
		return MNL_CB_OK;
	mnl_attr_parse(nlh, sizeof(*rt), table_attr,
		       &(struct attr_table){ tb, RTA_MAX });
	if (tb[RTA_OIF])
		q->oif = mnl_attr_get_u32(tb[RTA_OIF]);
	if (tb[RTA_GATEWAY] && mnl_attr_get_payload_len(tb[RTA_GATEWAY]) == alen) {
		memcpy(q->gw, mnl_attr_get_payload(tb[RTA_GATEWAY]), alen);
		q->has_gw = 1;
	}
	q->found = 1;
	return MNL_CB_OK;
}

int xr_route_nexthop(struct xr_neigh *n, int family, const uint8_t *dst, int *oif,
		     uint8_t nexthop[16])
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct route_query q = { .family = family };
	size_t alen = family == AF_INET ? 4 : 16;
	struct nlmsghdr *nlh = nl_header(n, buf, RTM_GETROUTE, 0);
	struct rtmsg *rt = mnl_nlmsg_put_extra_header(nlh, sizeof(*rt));
	int ret;

	rt->rtm_family = family;
	rt->rtm_dst_len = alen * 8;
	mnl_attr_put(nlh, RTA_DST, alen, dst);
	ret = nl_talk(n, buf, sizeof(buf), route_cb, &q);
	if (ret)
		return ret == -EHOSTUNREACH ? -ENETUNREACH : ret;
	if (!q.found)
		return -ENETUNREACH;
	*oif = q.oif;
	memset(nexthop, 0, 16);
	memcpy(nexthop, q.has_gw ? q.gw : dst, alen);
	return 0;
}

/* A datagram to the discard port: the kernel resolves the neighbour first. */
static void provoke_resolution(struct xr_neigh *n, int ifindex, int family,
			       const uint8_t *ip)
{
	if (family == AF_INET) {
		struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(9) };

		memcpy(&sa.sin_addr, ip, 4);
		sendto(n->udp4, "", 0, MSG_DONTWAIT, (struct sockaddr *)&sa, sizeof(sa));
	} else {
		struct sockaddr_in6 sa = { .sin6_family = AF_INET6, .sin6_port = htons(9),
					   .sin6_scope_id = ifindex };

		memcpy(&sa.sin6_addr, ip, 16);
		sendto(n->udp6, "", 0, MSG_DONTWAIT, (struct sockaddr *)&sa, sizeof(sa));
	}
}

int xr_neigh_resolve(struct xr_neigh *n, int ifindex, int family, const uint8_t *ip,
		     const uint8_t *probe_dst, uint8_t mac[6], int timeout_ms)
{
	struct neigh_query q = { .ifindex = ifindex, .family = family, .ip = ip };
	int waited = 0, ret;

	for (;;) {
		ret = neigh_lookup(n, &q);
		if (ret)
			return ret;
		if (q.found) {
			memcpy(mac, q.mac, 6);
			return 0;
		}
		if (waited >= timeout_ms)
			return -EHOSTUNREACH;
		if (waited % 200 == 0)
			provoke_resolution(n, ifindex, family, probe_dst);
		usleep(2000);
		waited += 2;
	}
}

int xr_link_info(int ifindex, uint8_t mac[6], uint32_t *mtu)
{
	struct ifreq ifr = { 0 };
	int fd, ret = 0;

	if (!if_indextoname(ifindex, ifr.ifr_name))
		return -ENODEV;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		ret = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	if (!ret && ioctl(fd, SIOCGIFMTU, &ifr))
		ret = -errno;
	else if (!ret)
		*mtu = ifr.ifr_mtu;
	close(fd);
	return ret;
}
