// dlna-floor.c ANSWERS PORT: an HTTP server that answers at once, one connection at a time (kept alive), the n-th
// request of a connection with the n-th answer of ANSWERS (as `dlna-walk.py --record` wrote them: each a 4-byte
// big-endian length and the body; past the last, from the first again). dlna-bench.sh records mlib's answers of
// one walk and has the lean client walk this server: the same parsing of the same bytes in the same order, with
// a server that costs nothing: the walk's floor. Built by dlna-bench.sh with cc.
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
static char **responses; static size_t *lengths; static size_t count;
static void load(const char *path) {   // every answer made into a whole HTTP response once, up front
    FILE *f = fopen(path, "rb"); if (!f) { perror(path); exit(1); }
    struct stat st; fstat(fileno(f), &st);
    unsigned char *data = malloc(st.st_size + 1); size_t n = fread(data, 1, st.st_size, f); fclose(f);
    size_t capacity = 1024; responses = malloc(capacity * sizeof *responses); lengths = malloc(capacity * sizeof *lengths);
    for (size_t at = 0; at + 4 <= n;) {
        size_t len = (size_t)data[at] << 24 | (size_t)data[at + 1] << 16 | (size_t)data[at + 2] << 8 | data[at + 3];
        at += 4; if (at + len > n) break;
        if (count == capacity) { capacity *= 2; responses = realloc(responses, capacity * sizeof *responses); lengths = realloc(lengths, capacity * sizeof *lengths); }
        char head[256];
        int h = snprintf(head, sizeof head, "HTTP/1.1 200 OK\r\nContent-Type: text/xml; charset=\"utf-8\"\r\nContent-Length: %zu\r\nConnection: keep-alive\r\n\r\n", len);
        responses[count] = malloc(h + len); memcpy(responses[count], head, h); memcpy(responses[count] + h, data + at, len);
        lengths[count++] = h + len; at += len;
    }
    if (!count) { fprintf(stderr, "%s: no answers\n", path); exit(1); }
}
int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: dlna-floor ANSWERS PORT\n"); return 2; }
    load(argv[1]);
    int s = socket(AF_INET, SOCK_STREAM, 0), one = 1; setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = {0}; a.sin_family = AF_INET; a.sin_port = htons(atoi(argv[2])); a.sin_addr.s_addr = htonl(INADDR_ANY);
    if (bind(s, (void *)&a, sizeof a) || listen(s, 8)) { perror("bind"); return 1; }
    for (;;) {
        int c = accept(s, 0, 0); setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        static char buf[65536]; size_t have = 0, next = 0;
        for (;;) {
            ssize_t r = read(c, buf + have, sizeof buf - have); if (r <= 0) break; have += r;
            for (;;) {   // every complete request in the buffer
                buf[have < sizeof buf ? have : sizeof buf - 1] = 0;
                char *end = strstr(buf, "\r\n\r\n"); if (!end) break;
                char *cl = strcasestr(buf, "Content-Length:"); size_t len = cl && cl < end ? strtoul(cl + 15, 0, 10) : 0;
                size_t need = (end + 4 - buf) + len; if (have < need) break;
                const char *resp = responses[next % count]; size_t total = lengths[next % count]; next++;
                size_t off = 0; while (off < total) { ssize_t w = write(c, resp + off, total - off); if (w <= 0) break; off += w; }
                memmove(buf, buf + need, have - need); have -= need;
            }
        }
        close(c);
    }
}
