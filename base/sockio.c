#include "sockio.h"

#include <errno.h>
#include <poll.h>
#include <sys/socket.h>

#include "clock.h"

int at_sock_send(int fd, const void *buf, size_t n)
{
    const char *p = buf;
    while (n) {
        ssize_t k = send(fd, p, n, MSG_NOSIGNAL);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}

int at_sock_recv(int fd, void *buf, size_t n, double deadline)
{
    char *p = buf;
    while (n) {
        if (deadline > 0) {
            double left = deadline - at_now_s();
            if (left <= 0)
                return -2;
            struct pollfd pf = {fd, POLLIN, 0};
            int r = poll(&pf, 1, (int)(left * 1e3) + 1);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                return -1;
            if (r == 0)
                return -2;
        }
        ssize_t k = recv(fd, p, n, 0);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return -1;
        p += k;
        n -= (size_t)k;
    }
    return 0;
}
