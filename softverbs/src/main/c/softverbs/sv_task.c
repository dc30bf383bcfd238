/* Engines' tasks (sv_task.h): run now when idle, once more when scheduled while running. */
#include <stddef.h>

#include "sv_task.h"

const char *const sv_task_state_name[SV_TASK__COUNT] = {
    [SV_TASK_IDLE] = "idle", [SV_TASK_BUSY] = "running", [SV_TASK_ARMED] = "running, scheduled again",
};

void sv_task_init(struct sv_task *t, const char *name, void (*run)(void *arg), void *arg)
{
    if (t == NULL || run == NULL)
        return;
    t->name = name;
    t->run = run;
    t->arg = arg;
    t->state = SV_TASK_IDLE;
}

void sv_task_schedule(struct sv_task *t)
{
    if (t == NULL || t->run == NULL)
        return;
    if (t->state != SV_TASK_IDLE) {
        t->state = SV_TASK_ARMED;   /* the run under way goes round once more */
        return;
    }
    do {
        t->state = SV_TASK_BUSY;
        t->run(t->arg);
    } while (t->state == SV_TASK_ARMED);
    t->state = SV_TASK_IDLE;
}
