/* Diagnostics: with SOFTVERBS_LOG=1 every drop, NAK, retry and error transition is printed
 * to stderr with its reason, e.g.
 *   softverbs 127.0.0.2 [out_of_seq_request] QP 0x11: PSN 0x000105 ahead of ePSN 0x000100, NAK sent
 * Counters are always kept; the log only says why they moved. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sv_loc.h"

static pthread_once_t g_log_once = PTHREAD_ONCE_INIT;
static bool g_log_on;   /* read once from the environment, never changed afterwards */

static void log_init(void)
{
    const char *v = getenv("SOFTVERBS_LOG");
    g_log_on = v && *v && strcmp(v, "0") != 0;
}

bool sv_log_enabled(void)
{
    pthread_once(&g_log_once, log_init);
    return g_log_on;
}

static void vlog(const struct sv_endpoint *ep, const char *tag, const char *fmt, va_list ap)
{
    char ip[INET_ADDRSTRLEN] = "?";
    if (ep)
        inet_ntop(AF_INET, &ep->ip_be, ip, sizeof ip);
    char msg[384];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "softverbs %s [%s] %s\n", ip, tag, msg);   /* one call: lines do not interleave */
}

void sv_log(const struct sv_endpoint *ep, const char *fmt, ...)
{
    if (!sv_log_enabled())
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(ep, "log", fmt, ap);
    va_end(ap);
}

void sv_note(struct sv_endpoint *ep, enum sv_counter c, const char *fmt, ...)
{
    sv_count(ep, c);
    if (ep->pktlog)
        sv_pktlog_note(ep->pktlog, c);
    if (!sv_log_enabled())
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(ep, sv_counter_name[c], fmt, ap);
    va_end(ap);
}
