/* An engine's task, as rxe's (rxe_task.c): an engine asks another to run by scheduling its task,
 * never by calling into it. A task scheduled while idle runs at once on the scheduling thread; one
 * scheduled while it runs (an engine it woke asked for it again) runs once more when the current run
 * ends, so a run never nests in itself. qp->lock held, as for every engine. */
#ifndef SV_TASK_H
#define SV_TASK_H

enum sv_task_state { SV_TASK_IDLE, SV_TASK_BUSY, SV_TASK_ARMED, SV_TASK__COUNT };
extern const char *const sv_task_state_name[SV_TASK__COUNT];

struct sv_task {
    const char *name;                /* the engine it runs, for SOFTVERBS_LOG */
    void (*run)(void *arg);
    void *arg;
    enum sv_task_state state;
};

void sv_task_init(struct sv_task *t, const char *name, void (*run)(void *arg), void *arg);
void sv_task_schedule(struct sv_task *t);

#endif
