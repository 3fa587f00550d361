// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <xroce/eth.h>

#include "pcap.h"

#define PCAP_MAGIC_USEC 0xa1b2c3d4u
#define PCAP_MAGIC_NSEC 0xa1b23c4du
#define PCAP_GLOBAL_HDR 24
#define PCAP_REC_HDR 16
#define SLL_HDR 16
#define SLL2_HDR 20

static uint32_t rd32(const struct xr_pcap *pc, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return pc->swapped ? __builtin_bswap32(v) : v;
}

static int fail(struct xr_pcap *pc, const char *msg)
{
	snprintf(pc->err, sizeof(pc->err), "%s", msg);
	return -1;
}

int xr_pcap_open_mem(struct xr_pcap *pc, const void *buf, size_t len)
{
	uint32_t magic;

	memset(pc, 0, offsetof(struct xr_pcap, frame));
	pc->err[0] = '\0';
	pc->buf = buf;
	pc->len = len;
	if (len < PCAP_GLOBAL_HDR)
		return fail(pc, "file shorter than a pcap header");
	memcpy(&magic, buf, 4);
	if (magic == PCAP_MAGIC_USEC || magic == PCAP_MAGIC_NSEC) {
		pc->swapped = 0;
	} else if (__builtin_bswap32(magic) == PCAP_MAGIC_USEC ||
		   __builtin_bswap32(magic) == PCAP_MAGIC_NSEC) {
		pc->swapped = 1;
		magic = __builtin_bswap32(magic);
	} else if (magic == 0x0a0d0d0a) {
		return fail(pc, "pcapng is not supported; convert with "
				"'editcap -F pcap IN OUT'");
	} else {
		return fail(pc, "not a pcap file (bad magic)");
	}
	pc->nsec = magic == PCAP_MAGIC_NSEC;
	pc->snaplen = rd32(pc, pc->buf + 16);
	pc->linktype = rd32(pc, pc->buf + 20) & 0x0fffffff;
	switch (pc->linktype) {
	case XR_LINKTYPE_ETHERNET:
	case XR_LINKTYPE_RAW:
	case XR_LINKTYPE_LINUX_SLL:
	case XR_LINKTYPE_LINUX_SLL2:
		break;
	default:
		snprintf(pc->err, sizeof(pc->err),
			 "unsupported pcap link type %u", pc->linktype);
		return -1;
	}
	pc->pos = PCAP_GLOBAL_HDR;
	return 0;
}

int xr_pcap_open_file(struct xr_pcap *pc, const char *path)
{
	struct stat st;
	void *map;
	int fd, ret;

	memset(pc, 0, offsetof(struct xr_pcap, frame));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(pc->err, sizeof(pc->err), "%s: %s", path, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		snprintf(pc->err, sizeof(pc->err), "%s: not a regular file", path);
		close(fd);
		return -1;
	}
	if (st.st_size == 0) {
		close(fd);
		return fail(pc, "file shorter than a pcap header");
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		snprintf(pc->err, sizeof(pc->err), "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = xr_pcap_open_mem(pc, map, st.st_size);
	pc->map = map;
	pc->map_len = st.st_size;
	return ret;
}

void xr_pcap_close(struct xr_pcap *pc)
{
	if (pc->map)
		munmap(pc->map, pc->map_len);
	pc->map = NULL;
}

/* Puts an Ethernet header with @proto in front of @len bytes of L3 data. */
static const uint8_t *synth_eth(struct xr_pcap *pc, uint16_t proto,
				const uint8_t *l3, uint32_t *len)
{
	struct xr_ethhdr *eth = (struct xr_ethhdr *)pc->frame;

	if (*len > XR_PCAP_MAX_FRAME)
		*len = XR_PCAP_MAX_FRAME;
	memset(eth, 0, sizeof(*eth));
	eth->proto = xr_cpu_to_be16(proto);
	memcpy(pc->frame + XR_ETH_HLEN, l3, *len);
	*len += XR_ETH_HLEN;
	return pc->frame;
}

int xr_pcap_next(struct xr_pcap *pc, struct xr_pcap_rec *rec)
{
	const uint8_t *h, *data;
	uint32_t caplen, origlen, sec, frac;
	uint16_t proto;

	if (pc->pos == pc->len)
		return 0;
	if (pc->len - pc->pos < PCAP_REC_HDR)
		return fail(pc, "truncated record header at end of file");
	h = pc->buf + pc->pos;
	sec = rd32(pc, h);
	frac = rd32(pc, h + 4);
	caplen = rd32(pc, h + 8);
	origlen = rd32(pc, h + 12);
	if (caplen > pc->len - pc->pos - PCAP_REC_HDR)
		return fail(pc, "record runs past the end of the file");
	if (caplen > 262144)
		return fail(pc, "record longer than 256 KiB: corrupt file");
	data = h + PCAP_REC_HDR;
	pc->pos += PCAP_REC_HDR + caplen;

	rec->ts_ns = (uint64_t)sec * 1000000000ull +
		     (pc->nsec ? frac : (uint64_t)frac * 1000);
	rec->origlen = origlen;
	switch (pc->linktype) {
	case XR_LINKTYPE_ETHERNET:
		rec->data = data;
		rec->caplen = caplen;
		break;
	case XR_LINKTYPE_LINUX_SLL:
	case XR_LINKTYPE_LINUX_SLL2: {
		uint32_t hl = pc->linktype == XR_LINKTYPE_LINUX_SLL ? SLL_HDR : SLL2_HDR;
		uint32_t poff = pc->linktype == XR_LINKTYPE_LINUX_SLL ? 14 : 0;

		if (caplen < hl) {
			/* Too short for its own header: hand out nothing. */
			rec->data = pc->frame;
			rec->caplen = 0;
			break;
		}
		proto = (uint16_t)(data[poff] << 8 | data[poff + 1]);
		caplen -= hl;
		rec->data = synth_eth(pc, proto, data + hl, &caplen);
		rec->caplen = caplen;
		break;
	}
	case XR_LINKTYPE_RAW:
		proto = caplen && (data[0] >> 4) == 6 ? XR_ETH_P_IPV6 : XR_ETH_P_IP;
		rec->data = synth_eth(pc, proto, data, &caplen);
		rec->caplen = caplen;
		break;
	}
	return 1;
}

int xr_pcap_write_header(FILE *f)
{
	uint32_t hdr[6] = { PCAP_MAGIC_USEC, 0x00040002u, 0, 0, 262144,
			    XR_LINKTYPE_ETHERNET };

	return fwrite(hdr, sizeof(hdr), 1, f) == 1 ? 0 : -1;
}

int xr_pcap_write_frame(FILE *f, uint64_t ts_ns, const void *frame, uint32_t len)
{
	uint32_t rh[4] = { (uint32_t)(ts_ns / 1000000000ull),
			   (uint32_t)(ts_ns % 1000000000ull / 1000), len, len };

	if (fwrite(rh, sizeof(rh), 1, f) != 1)
		return -1;
	return len && fwrite(frame, len, 1, f) != 1 ? -1 : 0;
}
