// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/* The two-host fixture itself: namespaces, veth, addresses, reachability. */
#include "netns.h"
#include "test_progs.h"

XR_TEST_ROOT(netns_hosts_ping)
{
	struct xr_hosts h;

	if (!ASSERT_OK(xr_hosts_create(&h, 0), "create hosts"))
		return;
	ASSERT_GE(h.ifindex[0], 1, "ifindex a");
	ASSERT_GE(h.ifindex[1], 1, "ifindex b");
	ASSERT_NEQ(h.mac[0][5] | h.mac[0][4] << 8, 0, "mac a");
	ASSERT_OK(xr_hosts_sys(&h, 0, "ping -c1 -W2 %s >/dev/null", h.ip4[1]),
		  "ping v4");
	ASSERT_OK(xr_hosts_sys(&h, 1, "ping -6 -c1 -W2 %s >/dev/null", h.ip6[0]),
		  "ping v6");
	xr_hosts_destroy(&h);
}
