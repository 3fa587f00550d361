/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Two connected RC endpoints for the data-path tests: the two-host fixture
 * with xroce attached on both ends, a libxroce device, PD, CQ, QP and a
 * registered buffer per host, QPs moved to RTS against each other.
 */
#ifndef XROCE_TEST_RC_UTIL_H
#define XROCE_TEST_RC_UTIL_H

#include <xroce/xroce.h>

#include "netns.h"

struct rc_end {
	struct xr_context *ctx;
	struct xr_pd *pd;
	struct xr_cq *cq;
	struct xr_qp *qp[4];
	uint8_t *buf;
	size_t buf_len;
	struct xr_mr *mr;
};

struct rc_pair {
	struct xr_hosts h;
	struct rc_end e[2];
	int nqp;
};

struct rc_opts {
	int ifmtu;		/* 0: 1500 */
	enum xr_mtu path_mtu;	/* 0: 1024 */
	size_t buf_len;		/* 0: 4 MiB */
	uint32_t psn[2];	/* initial SQ PSN of host 0 and 1 (0: random) */
	int nqp;		/* QPs per host (0: 1) */
	uint8_t timeout;	/* 0: 12 (16.8 ms) */
	uint8_t retry_cnt;	/* 0 means 7 */
	uint8_t rnr_retry;	/* 0 means 7 (forever) */
	uint8_t min_rnr_timer;	/* 0 means 1 (10 us) */
	int ipv6;		/* use the IPv6 GIDs */
	int relay;		/* hosts joined through a fault-injecting relay */
	int routed;		/* hosts in two subnets, a router between them */
	uint8_t tclass;		/* IP TOS / traffic class of the QPs' frames */
};

/* 0 or -1 (logged). Tear down with rc_pair_destroy() in every case. */
int rc_pair_create(struct rc_pair *p, const struct rc_opts *o);
void rc_pair_destroy(struct rc_pair *p);

/* @n pseudo-random bytes that differ with @seed: payloads to verify. */
void rc_fill(uint8_t *b, size_t n, unsigned seed);

/* Polls @cq until @n completions arrived or @ms passed; returns how many. */
int rc_wait(struct xr_cq *cq, struct xr_wc *wc, int n, int ms);

/* Moves a QP of host @a to RTS against the QP of host @b (same index). */
int rc_connect(struct rc_pair *p, int a, int qi, const struct rc_opts *o);

/* Destroys whichever of these exist (NULL: skipped), QP first. */
void rc_objs_destroy(struct xr_qp *qp, struct xr_cq *cq, struct xr_mr *mr,
		     struct xr_pd *pd, struct xr_context *ctx);

/* The same for any QP: INIT, RTR against (dest_qpn, dgid), RTS. */
int rc_connect_qp(struct xr_qp *qp, uint32_t dest_qpn, const union xr_gid *dgid,
		  int gidx, uint32_t sq_psn, uint32_t rq_psn, const struct rc_opts *o);

#endif
