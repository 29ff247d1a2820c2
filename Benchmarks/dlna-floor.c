// dlna-floor.c BODY PORT: an HTTP server that answers every request with BODY at once (one connection at a
// time, kept alive). dlna-bench.sh times the lean client's calls against it: the walk's floor, what the
// client and the network cost with a server that costs nothing. Built by dlna-bench.sh with cc.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "rb"); static char body[1 << 20]; size_t n = fread(body, 1, sizeof body, f); fclose(f);
    static char resp[1 << 21];
    int h = snprintf(resp, sizeof resp, "HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=\"utf-8\"\r\nContent-Length: %zu\r\nConnection: keep-alive\r\n\r\n", n);
    memcpy(resp + h, body, n); size_t total = h + n;
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1; setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {0}; a.sin_family = AF_INET; a.sin_port = htons(atoi(argv[2])); a.sin_addr.s_addr = htonl(INADDR_ANY);
    if (bind(s, (void *)&a, sizeof a) || listen(s, 8)) { perror("bind"); return 1; }
    for (;;) {
        int c = accept(s, 0, 0); setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        static char buf[65536]; size_t have = 0;
        for (;;) {
            ssize_t r = read(c, buf + have, sizeof buf - have); if (r <= 0) break; have += r;
            for (;;) {   // every complete request in the buffer
                buf[have < sizeof buf ? have : sizeof buf - 1] = 0;
                char *end = strstr(buf, "\r\n\r\n"); if (!end) break;
                char *cl = strcasestr(buf, "Content-Length:"); size_t len = cl && cl < end ? strtoul(cl + 15, 0, 10) : 0;
                size_t need = (end + 4 - buf) + len; if (have < need) break;
                size_t off = 0; while (off < total) { ssize_t w = write(c, resp + off, total - off); if (w <= 0) break; off += w; }
                memmove(buf, buf + need, have - need); have -= need;
            }
        }
        close(c);
    }
}
