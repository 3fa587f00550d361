/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * Internals of libxroce: the objects behind the verbs API and the RC
 * transport engine (requester in rc_req.c, responder in rc_resp.c). One
 * mutex per device guards everything below; the engine runs either in the
 * application's thread (xr_poll_cq, xr_post_send) or in the device's
 * progress thread, whichever holds the lock.
 */
#ifndef XROCE_USER_ENGINE_H
#define XROCE_USER_ENGINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include <xroce/map_types.h>
#include <xroce/xroce.h>

#include "build.h"
#include "pkt.h"
#include "neigh.h"
#include "xsk.h"

#define XR_FIRST_QPN		0x11	/* as rdma_rxe: 0-1 are special QPs */
#define XR_MAX_QP		XR_MAX_QP_STATS
#define XR_MAX_MR		4096
#define XR_MAX_GID		16
#define XR_MAX_SGE		16
#define XR_MAX_WR		16384
#define XR_MAX_CQE		65536
#define XR_MAX_RD_ATOMIC	16
#define XR_WINDOW		1024	/* unacknowledged packets per QP */
#define XR_ACKREQ_EVERY		64	/* AckReq inside long messages */
#define XR_MAX_INLINE		0

static inline uint32_t xr_psn_add(uint32_t psn, uint32_t n)
{
	return (psn + n) & XR_BTH_PSN_MASK;
}

/* a - b in 24-bit PSN space, in [-2^23, 2^23). */
static inline int32_t xr_psn_diff(uint32_t a, uint32_t b)
{
	return (int32_t)((a - b) << 8) >> 8;
}

struct xr_gid_entry {
	union xr_gid gid;
	int family;		/* AF_INET or AF_INET6 */
};

struct xr_pd {
	struct xr_context *ctx;
	int nmr, nqp;		/* objects still using it */
};

struct xr_cq {
	struct xr_context *ctx;
	void *cq_context;
	struct xr_wc *ring;
	uint32_t size;
	uint32_t head, count;
	int efd;		/* eventfd for xr_cq_fd() */
	bool armed, solicited_only;
	bool overflow;
	int nqp;
};

struct xr_send_wqe {
	struct xr_send_wr wr;
	struct xr_sge sge[XR_MAX_SGE];
	uint32_t length;	/* sum of SGE lengths */
	uint32_t first_psn;	/* valid once started */
	uint32_t npkts;		/* PSNs the message occupies */
	uint32_t rd_pkts;	/* READ: response packets placed so far */
	bool started;
	bool done;		/* READ: every response arrived */
};

struct xr_recv_wqe {
	uint64_t wr_id;
	struct xr_sge sge[XR_MAX_SGE];
	int num_sge;
	uint32_t length;
};

/* A READ the responder is answering (or answering again). */
struct xr_read_res {
	uint32_t first_psn;
	uint32_t npkts, sent;
	uint64_t va;
	uint32_t len;		/* total bytes */
	uint32_t msn;
	struct xr_mr *mr;
};

struct xr_qp_impl {
	struct xr_qp pub;
	struct xr_qp_attr attr;
	struct xr_qp_cap cap;
	bool sq_sig_all;
	uint32_t pmtu;
	struct xr_frame_addr fa;	/* valid from RTR */
	uint16_t pkey;

	/* send queue: indices grow without bound, slot = index % size */
	struct xr_send_wqe *sq;
	uint32_t sq_size;
	uint32_t sq_head;	/* oldest not completed */
	uint32_t sq_cur;	/* next to (re)transmit */
	uint32_t sq_tail;	/* next free */
	uint32_t cur_pkt;	/* packet of sq_cur to send next */

	/* requester */
	uint32_t req_psn;	/* next new PSN */
	uint32_t una_psn;	/* oldest unacknowledged PSN */
	uint64_t rto_deadline;	/* 0: no retransmission timer */
	uint64_t rnr_deadline;	/* 0: not waiting after an RNR NAK */
	uint32_t rnr_psn;
	int retry_left, rnr_left;
	uint32_t reads_out;	/* READ WQEs sent, responses not all in */
	bool gbn_armed;		/* a go-back-N for a gap is already pending */

	/* receive queue */
	struct xr_recv_wqe *rq;
	uint32_t rq_size, rq_head, rq_tail;

	/* responder */
	uint32_t epsn;		/* next expected request PSN */
	uint32_t msn;
	bool nak_seq_sent;
	uint8_t cur_op;		/* 0, or the kind of the message in progress */
	uint32_t recv_off;	/* bytes placed into the head receive WQE */
	struct xr_mr *wr_mr;	/* WRITE in progress */
	uint64_t wr_va;
	uint32_t wr_resid, wr_len;
	bool ack_pending;
	uint32_t ack_psn;
	struct xr_read_res rd[XR_MAX_RD_ATOMIC];
	uint32_t rd_head, rd_count;

	bool on_ack_list;
	struct xr_qp_impl *next_ack;	/* list of QPs owing an ACK */

	/* In xr_qp_stats (mapped), or ctr_local on an older attachment. */
	struct xr_qp_counters *ctr;
	struct xr_qp_counters ctr_local;
};

static inline struct xr_qp_impl *qpi(struct xr_qp *qp)
{
	return (struct xr_qp_impl *)qp;
}

struct xr_context {
	char ifname[16];
	int ifindex;
	uint8_t mac[6];
	uint32_t ifmtu;
	struct xr_gid_entry gids[XR_MAX_GID];
	int ngid;
	uint64_t netns_ino;	/* where the device was opened (xr_netns_ino) */

	pthread_mutex_t lock;
	pthread_t thread;
	bool thread_started;
	volatile bool stop;
	int wake_fd;		/* eventfd: wakes the progress thread */
	volatile uint64_t app_poll_us;	/* last xr_poll_cq by the application */

	struct xr_xsk xsk;
	uint8_t tx_scratch[XR_XSK_MAX_FRAME];	/* jumbo frames are built here */
	struct xr_neigh neigh;	/* sockets in the device's netns */
	pthread_mutex_t neigh_lock;
	int qps_map_fd;		/* pinned xr_qps */
	int xsks_map_fd;	/* pinned xr_xsks */
	uint32_t xsk_slot;
	bool icrc_in_xdp;	/* the XDP program already checked every ICRC */

	struct xr_mr *mrs[XR_MAX_MR];
	uint32_t mr_gen;
	struct xr_qp_impl *qps[XR_MAX_QP];
	uint32_t next_qpn;
	uint16_t ip_id;
	struct xr_qp_impl *ack_list;

	/* In xr_dev_stats (mapped), or ctr_local on an older attachment. */
	struct xr_dev_counters *ctr;
	struct xr_dev_counters ctr_local;
	struct xr_qp_counters *qp_stats;	/* XR_MAX_QP_STATS slots, or NULL */
	size_t dev_stats_len, qp_stats_len;
};

/* Time in microseconds, CLOCK_MONOTONIC. */
uint64_t xr_now_us(void);

/* Errors: record a message for xr_last_error(), return @err (positive). */
int xr_set_err(int err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * CQ. @solicited: a receive of a message whose last packet had the SE bit;
 * with xr_req_notify_cq(cq, 1) only those and errors raise the event.
 */
bool xr_cq_push(struct xr_cq *cq, const struct xr_wc *wc, bool solicited);

/* QP state */
void xr_qp_to_error(struct xr_qp_impl *qp);
void xr_qp_map_update(struct xr_qp_impl *qp);

/* Memory: the MR for @key if it covers [va, va+len) with @access, else NULL. */
struct xr_mr *xr_mr_check(struct xr_context *ctx, struct xr_pd *pd, uint32_t key,
			  uint64_t va, uint64_t len, int access);

/* Sends one frame of @qp; payload from @pay (NULL: zeros) of @paylen bytes. */
int xr_send_frame(struct xr_qp_impl *qp, const struct xr_frame_hdrs *h,
		  const struct xr_sge *sge, int nsge, uint64_t off, const void *pay,
		  uint32_t paylen);
uint32_t xr_tx_room(struct xr_context *ctx);

/*
 * Engine: one pass over RX and timers; the caller holds ctx->lock. With
 * @defer_kick, frames built in this pass (ACKs) stay queued for the next
 * kick, so that they leave together with what the application posts next.
 */
void xr_engine_progress(struct xr_context *ctx, bool defer_kick);
/* The earliest timer of any QP (0: none). */
uint64_t xr_engine_next_deadline(struct xr_context *ctx);

/* Requester (rc_req.c) */
enum xr_wc_opcode xr_wc_opcode_of(enum xr_wr_opcode op);
void xr_req_progress(struct xr_qp_impl *qp);
void xr_req_recv(struct xr_qp_impl *qp, const struct xr_pkt_info *pi);
void xr_req_timers(struct xr_qp_impl *qp, uint64_t now);
void xr_req_flush(struct xr_qp_impl *qp);

/* Responder (rc_resp.c) */
void xr_resp_recv(struct xr_qp_impl *qp, const struct xr_pkt_info *pi);
void xr_resp_progress(struct xr_qp_impl *qp);
void xr_resp_send_ack(struct xr_qp_impl *qp);
void xr_resp_flush(struct xr_qp_impl *qp);

/* SGE copies: between a WQE's scatter list and a flat buffer, at @off. */
void xr_sge_copy_out(const struct xr_sge *sge, int nsge, uint64_t off, void *dst,
		     uint32_t len);
void xr_sge_copy_in(const struct xr_sge *sge, int nsge, uint64_t off,
		    const void *src, uint32_t len);

/* rdma_rxe's UDP source port for a QP pair (rdma_get_udp_sport, flow label 0). */
uint16_t xr_roce_sport(uint32_t lqpn, uint32_t rqpn, uint32_t flow_label);

#endif
