/*
 * SIGQUIT for `rdmatrace record` (io.rdmatrace.verbs.QuitSignal). HotSpot keeps SIGQUIT for its
 * thread dumps and refuses it to sun.misc.Signal; -Xrs would free it but take SIGINT, SIGTERM and
 * SIGHUP away instead. While a program is recorded, this handler replaces the JVM's (saved, and
 * put back on release): it only posts a semaphore (async-signal-safe), and a Java thread blocked
 * in await0 passes the signal on like the other three. Meanwhile the recorder's JVM gives no
 * thread dump and takes no jcmd attach (both ride on SIGQUIT).
 */
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <string.h>

#include "jni_util.h"

static sem_t quit_posted;
static struct sigaction quit_previous;
static volatile sig_atomic_t quit_taken;
static volatile sig_atomic_t quit_released;
static int quit_sem_ready;

static void on_quit(int sig)
{
    (void)sig;
    int saved = errno;
    sem_post(&quit_posted);
    errno = saved;
}

/* Takes SIGQUIT from the JVM; 0, or the errno of the failure (EBUSY when already taken). */
JNIEXPORT jint JNICALL Java_io_rdmatrace_verbs_QuitSignal_take0(JNIEnv *env, jclass cls)
{
    if (quit_taken) {
        return EBUSY;
    }
    if (!quit_sem_ready) {
        if (sem_init(&quit_posted, 0, 0) != 0) {
            return errno;
        }
        quit_sem_ready = 1;
    }
    while (sem_trywait(&quit_posted) == 0) {
        /* a post the last holder's thread did not take: not this holder's */
    }
    struct sigaction sa;
    memset(&sa, 0, sizeof(sa));
    sa.sa_handler = on_quit;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    quit_released = 0;
    if (sigaction(SIGQUIT, &sa, &quit_previous) != 0) {
        return errno;
    }
    quit_taken = 1;
    return 0;
}

/* Blocks until a SIGQUIT came (true) or the handler was released (false). */
JNIEXPORT jboolean JNICALL Java_io_rdmatrace_verbs_QuitSignal_await0(JNIEnv *env, jclass cls)
{
    if (!quit_taken && !quit_released) {
        jni_throw(env, EXC_ILLEGAL_STATE, "SIGQUIT is not taken");
        return JNI_FALSE;
    }
    while (sem_wait(&quit_posted) != 0) {
        if (errno != EINTR) {
            return JNI_FALSE;
        }
    }
    return quit_released ? JNI_FALSE : JNI_TRUE;
}

/* Gives SIGQUIT back to the JVM (its thread dumps) and wakes the waiting thread. */
JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_QuitSignal_release0(JNIEnv *env, jclass cls)
{
    if (!quit_taken) {
        return;
    }
    sigaction(SIGQUIT, &quit_previous, NULL);
    quit_taken = 0;
    quit_released = 1;
    sem_post(&quit_posted);
}

/*
 * HotSpot blocks SIGQUIT in every thread but its VM thread, and a child inherits the mask of the
 * thread that starts it: a recorded program would never see a terminal's Ctrl-\. Unblocks it in
 * the calling thread for the start; returns whether it was blocked (for reblock0).
 */
JNIEXPORT jboolean JNICALL Java_io_rdmatrace_verbs_QuitSignal_unblock0(JNIEnv *env, jclass cls)
{
    sigset_t quit, old;
    sigemptyset(&quit);
    sigaddset(&quit, SIGQUIT);
    if (pthread_sigmask(SIG_UNBLOCK, &quit, &old) != 0) {
        return JNI_FALSE;
    }
    return sigismember(&old, SIGQUIT) == 1 ? JNI_TRUE : JNI_FALSE;
}

JNIEXPORT void JNICALL Java_io_rdmatrace_verbs_QuitSignal_reblock0(JNIEnv *env, jclass cls, jboolean was_blocked)
{
    if (was_blocked) {
        sigset_t quit;
        sigemptyset(&quit);
        sigaddset(&quit, SIGQUIT);
        pthread_sigmask(SIG_BLOCK, &quit, NULL);
    }
}
