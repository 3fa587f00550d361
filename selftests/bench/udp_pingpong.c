// SPDX-License-Identifier: (GPL-2.0-only OR BSD-2-Clause)
/*
 * Kernel UDP ping-pong with busy polling (non-blocking recv in a loop), the
 * baseline xroce-pingpong is compared with in `make bench`: the same
 * message size, iterations and output line as ibv_rc_pingpong.
 *   udp_pingpong -s SIZE -n ITERS [-p PORT]          server
 *   udp_pingpong -s SIZE -n ITERS [-p PORT] HOST     client
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static int recv_spin(int fd, char *buf, size_t len, struct sockaddr_in *from)
{
	socklen_t fl = sizeof(*from);

	for (;;) {
		ssize_t n = recvfrom(fd, buf, len, MSG_DONTWAIT, (struct sockaddr *)from, &fl);

		if (n >= 0)
			return (int)n;
		if (errno != EAGAIN && errno != EINTR)
			return -1;
	}
}

int main(int argc, char **argv)
{
	struct sockaddr_in me = { .sin_family = AF_INET }, peer = { .sin_family = AF_INET };
	int size = 64, iters = 1000, port = 18600, opt, fd, i;
	const char *host = NULL;
	struct timeval t0, t1;
	static char buf[65536];

	while ((opt = getopt(argc, argv, "s:n:p:")) != -1) {
		switch (opt) {
		case 's': size = atoi(optarg); break;
		case 'n': iters = atoi(optarg); break;
		case 'p': port = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: udp_pingpong [-s size] [-n iters] [-p port] [host]\n");
			return 1;
		}
	}
	if (optind < argc)
		host = argv[optind];
	if (size < 1 || size > (int)sizeof(buf)) {
		fprintf(stderr, "udp_pingpong: size 1..%zu\n", sizeof(buf));
		return 1;
	}
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (fd < 0)
		return 1;
	if (!host) {
		me.sin_port = htons(port);
		if (bind(fd, (struct sockaddr *)&me, sizeof(me))) {
			perror("bind");
			return 1;
		}
		for (i = 0; i < iters; i++) {
			int n = recv_spin(fd, buf, sizeof(buf), &peer);

			if (n < 0 || sendto(fd, buf, n, 0, (struct sockaddr *)&peer,
					    sizeof(peer)) != n)
				return 1;
		}
		return 0;
	}
	peer.sin_port = htons(port);
	if (inet_pton(AF_INET, host, &peer.sin_addr) != 1)
		return 1;
	memset(buf, 0x7b, size);
	gettimeofday(&t0, NULL);
	for (i = 0; i < iters; i++) {
		struct sockaddr_in from;

		if (sendto(fd, buf, size, 0, (struct sockaddr *)&peer, sizeof(peer)) != size ||
		    recv_spin(fd, buf, sizeof(buf), &from) != size)
			return 1;
	}
	gettimeofday(&t1, NULL);
	{
		double usec = (t1.tv_sec - t0.tv_sec) * 1e6 + (t1.tv_usec - t0.tv_usec);

		printf("%d iters in %.2f seconds = %.2f usec/iter\n", iters, usec / 1e6,
		       usec / iters);
	}
	return 0;
}
