/* SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause) */
/*
 * libxroce: the verbs API of xroce, shaped like libibverbs so that anyone
 * who knows verbs recognises each call. Enum values equal their ibv_
 * counterparts (IBV_WC_SUCCESS == XR_WC_SUCCESS, IBV_QPS_RTS ==
 * XR_QPS_RTS, ...), so code and logs translate one to one.
 *
 * Errors: calls returning int give 0 or a positive errno value (as
 * ibv_modify_qp and ibv_post_send do); calls returning a pointer give NULL
 * and set errno. xr_last_error() describes the most recent failure of the
 * calling thread in words, with the fix when one is known.
 *
 * Threads: every call is thread-safe. A device runs one background thread
 * that answers the peer (ACKs, READ responses, retransmission timers) when
 * the application is not polling; polling a CQ drives the engine directly.
 */
#ifndef XROCE_XROCE_H
#define XROCE_XROCE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

union xr_gid {
	uint8_t raw[16];
	struct {
		uint64_t subnet_prefix;
		uint64_t interface_id;
	} global;
};

enum xr_mtu {
	XR_MTU_256 = 1,
	XR_MTU_512 = 2,
	XR_MTU_1024 = 3,
	XR_MTU_2048 = 4,
	XR_MTU_4096 = 5,
};

static inline int xr_mtu_to_bytes(enum xr_mtu m)
{
	return m >= XR_MTU_256 && m <= XR_MTU_4096 ? 128 << m : 0;
}

enum xr_port_state {
	XR_PORT_DOWN = 1,
	XR_PORT_ACTIVE = 4,
};

struct xr_port_attr {
	enum xr_port_state state;
	enum xr_mtu max_mtu;		/* largest path MTU xroce supports */
	enum xr_mtu active_mtu;		/* largest that fits the interface MTU */
	int gid_tbl_len;
	uint16_t lid;			/* 0: RoCE has no LIDs */
	uint8_t link_layer;		/* 2: Ethernet, as IBV_LINK_LAYER_ETHERNET */
	uint32_t ifmtu;			/* the interface's MTU */
};

enum xr_access_flags {
	XR_ACCESS_LOCAL_WRITE = 1,
	XR_ACCESS_REMOTE_WRITE = 2,
	XR_ACCESS_REMOTE_READ = 4,
	XR_ACCESS_REMOTE_ATOMIC = 8,
};

enum xr_qp_type {
	XR_QPT_RC = 2,
};

enum xr_qp_state {
	XR_QPS_RESET = 0,
	XR_QPS_INIT = 1,
	XR_QPS_RTR = 2,
	XR_QPS_RTS = 3,
	XR_QPS_SQD = 4,
	XR_QPS_SQE = 5,
	XR_QPS_ERR = 6,
};

enum xr_qp_attr_mask {
	XR_QP_STATE = 1 << 0,
	XR_QP_CUR_STATE = 1 << 1,
	XR_QP_ACCESS_FLAGS = 1 << 3,
	XR_QP_PKEY_INDEX = 1 << 4,
	XR_QP_PORT = 1 << 5,
	XR_QP_AV = 1 << 7,
	XR_QP_TIMEOUT = 1 << 9,
	XR_QP_RETRY_CNT = 1 << 10,
	XR_QP_RNR_RETRY = 1 << 11,
	XR_QP_RQ_PSN = 1 << 12,
	XR_QP_MAX_QP_RD_ATOMIC = 1 << 13,
	XR_QP_MIN_RNR_TIMER = 1 << 15,
	XR_QP_SQ_PSN = 1 << 16,
	XR_QP_MAX_DEST_RD_ATOMIC = 1 << 17,
	XR_QP_PATH_MTU = 1 << 18,
	XR_QP_CAP = 1 << 19,
	XR_QP_DEST_QPN = 1 << 20,
};

enum xr_wr_opcode {
	XR_WR_RDMA_WRITE = 0,
	XR_WR_RDMA_WRITE_WITH_IMM = 1,
	XR_WR_SEND = 2,
	XR_WR_SEND_WITH_IMM = 3,
	XR_WR_RDMA_READ = 4,
};

enum xr_send_flags {
	XR_SEND_FENCE = 1,
	XR_SEND_SIGNALED = 2,
	XR_SEND_SOLICITED = 4,
	XR_SEND_INLINE = 8,
};

enum xr_wc_status {
	XR_WC_SUCCESS = 0,
	XR_WC_LOC_LEN_ERR = 1,
	XR_WC_LOC_QP_OP_ERR = 2,
	XR_WC_LOC_PROT_ERR = 4,
	XR_WC_WR_FLUSH_ERR = 5,
	XR_WC_BAD_RESP_ERR = 7,
	XR_WC_LOC_ACCESS_ERR = 8,
	XR_WC_REM_INV_REQ_ERR = 9,
	XR_WC_REM_ACCESS_ERR = 10,
	XR_WC_REM_OP_ERR = 11,
	XR_WC_RETRY_EXC_ERR = 12,
	XR_WC_RNR_RETRY_EXC_ERR = 13,
	XR_WC_FATAL_ERR = 19,
	XR_WC_GENERAL_ERR = 21,
};

enum xr_wc_opcode {
	XR_WC_SEND = 0,
	XR_WC_RDMA_WRITE = 1,
	XR_WC_RDMA_READ = 2,
	XR_WC_RECV = 128,
	XR_WC_RECV_RDMA_WITH_IMM = 129,
};

enum xr_wc_flags {
	XR_WC_GRH = 1,
	XR_WC_WITH_IMM = 2,
};

struct xr_context;
struct xr_pd;
struct xr_cq;

struct xr_mr {
	struct xr_context *context;
	struct xr_pd *pd;
	void *addr;
	size_t length;
	uint32_t lkey;
	uint32_t rkey;
	int access;
};

struct xr_qp_cap {
	uint32_t max_send_wr;
	uint32_t max_recv_wr;
	uint32_t max_send_sge;
	uint32_t max_recv_sge;
	uint32_t max_inline_data;
};

struct xr_qp_init_attr {
	void *qp_context;
	struct xr_cq *send_cq;
	struct xr_cq *recv_cq;
	struct xr_qp_cap cap;
	enum xr_qp_type qp_type;
	int sq_sig_all;
};

struct xr_global_route {
	union xr_gid dgid;
	uint32_t flow_label;
	uint8_t sgid_index;
	uint8_t hop_limit;
	uint8_t traffic_class;
};

struct xr_ah_attr {
	struct xr_global_route grh;
	uint16_t dlid;
	uint8_t sl;
	uint8_t is_global;	/* RoCE needs a GRH: must be 1 */
	uint8_t port_num;
};

struct xr_qp_attr {
	enum xr_qp_state qp_state;
	enum xr_qp_state cur_qp_state;
	enum xr_mtu path_mtu;
	uint32_t rq_psn;
	uint32_t sq_psn;
	uint32_t dest_qp_num;
	int qp_access_flags;
	struct xr_qp_cap cap;
	struct xr_ah_attr ah_attr;
	uint16_t pkey_index;
	uint8_t max_rd_atomic;
	uint8_t max_dest_rd_atomic;
	uint8_t min_rnr_timer;
	uint8_t port_num;
	uint8_t timeout;
	uint8_t retry_cnt;
	uint8_t rnr_retry;
};

struct xr_qp {
	struct xr_context *context;
	void *qp_context;
	struct xr_pd *pd;
	struct xr_cq *send_cq;
	struct xr_cq *recv_cq;
	uint32_t qp_num;
	enum xr_qp_state state;
	enum xr_qp_type qp_type;
};

struct xr_sge {
	uint64_t addr;
	uint32_t length;
	uint32_t lkey;
};

struct xr_send_wr {
	uint64_t wr_id;
	struct xr_send_wr *next;
	struct xr_sge *sg_list;
	int num_sge;
	enum xr_wr_opcode opcode;
	unsigned int send_flags;
	uint32_t imm_data;	/* network byte order, as in verbs */
	struct {
		uint64_t remote_addr;
		uint32_t rkey;
	} rdma;
};

struct xr_recv_wr {
	uint64_t wr_id;
	struct xr_recv_wr *next;
	struct xr_sge *sg_list;
	int num_sge;
};

struct xr_wc {
	uint64_t wr_id;
	enum xr_wc_status status;
	enum xr_wc_opcode opcode;
	uint32_t vendor_err;
	uint32_t byte_len;
	uint32_t imm_data;	/* network byte order */
	uint32_t qp_num;
	uint32_t src_qp;
	unsigned int wc_flags;
};

/* Device. @ifname must have xroce attached (`xroce attach IFNAME`). */
struct xr_context *xr_open_device(const char *ifname);
int xr_close_device(struct xr_context *ctx);
const char *xr_device_name(const struct xr_context *ctx);
int xr_query_port(struct xr_context *ctx, uint8_t port_num,
		  struct xr_port_attr *attr);
/* Index 0: fe80:: from the MAC; 1..: IPv4 as ::ffff:a.b.c.d; then IPv6. */
int xr_query_gid(struct xr_context *ctx, uint8_t port_num, int index,
		 union xr_gid *gid);

struct xr_pd *xr_alloc_pd(struct xr_context *ctx);
int xr_dealloc_pd(struct xr_pd *pd);

struct xr_mr *xr_reg_mr(struct xr_pd *pd, void *addr, size_t length, int access);
int xr_dereg_mr(struct xr_mr *mr);

/*
 * A CQ of at least @cqe entries. xr_cq_fd() is readable when a completion
 * arrives after xr_req_notify_cq(); xr_get_cq_event() consumes that event.
 */
struct xr_cq *xr_create_cq(struct xr_context *ctx, int cqe, void *cq_context);
int xr_destroy_cq(struct xr_cq *cq);
/* Up to @n completions into @wc; returns how many, or -errno. Non-blocking. */
int xr_poll_cq(struct xr_cq *cq, int n, struct xr_wc *wc);
int xr_cq_fd(const struct xr_cq *cq);
int xr_req_notify_cq(struct xr_cq *cq, int solicited_only);
/* Blocks until the CQ's event fd fires; returns 0 or an errno value. */
int xr_get_cq_event(struct xr_cq *cq);
void *xr_cq_context(const struct xr_cq *cq);

struct xr_qp *xr_create_qp(struct xr_pd *pd, struct xr_qp_init_attr *attr);
int xr_modify_qp(struct xr_qp *qp, struct xr_qp_attr *attr, int attr_mask);
int xr_query_qp(struct xr_qp *qp, struct xr_qp_attr *attr, int attr_mask,
		struct xr_qp_init_attr *init_attr);
int xr_destroy_qp(struct xr_qp *qp);

int xr_post_send(struct xr_qp *qp, struct xr_send_wr *wr,
		 struct xr_send_wr **bad_wr);
int xr_post_recv(struct xr_qp *qp, struct xr_recv_wr *wr,
		 struct xr_recv_wr **bad_wr);

/* The last failure of this thread, in words. */
const char *xr_last_error(void);
const char *xr_wc_status_str(enum xr_wc_status status);
/* "RESET", "INIT", "RTR", "RTS", "SQD", "SQE", "ERR". */
const char *xr_qp_state_str(enum xr_qp_state state);

#ifdef __cplusplus
}
#endif

#endif /* XROCE_XROCE_H */
