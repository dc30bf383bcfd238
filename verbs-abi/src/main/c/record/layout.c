/* The slot names of every layout, generated from the same X-macro lists as the enums. */
#include "layout.h"

#include <stddef.h>

#define NAME_(n) #n ","

static const char *const layout_name_lists[LAYOUT_COUNT] = {
    [LAYOUT_STATUS] = STATUS_SLOTS(NAME_),
    [LAYOUT_DEVICE_ATTR] = DEVICE_ATTR_SLOTS(NAME_),
    [LAYOUT_PORT_ATTR] = PORT_ATTR_SLOTS(NAME_),
    [LAYOUT_GID_ENTRY] = GID_ENTRY_SLOTS(NAME_),
    [LAYOUT_AH_ATTR] = AH_ATTR_SLOTS(NAME_),
    [LAYOUT_QP_ATTR] = QP_ATTR_SLOTS(NAME_),
    [LAYOUT_QP_INIT] = QP_INIT_SLOTS(NAME_),
    [LAYOUT_ASYNC_EVENT] = ASYNC_EVENT_SLOTS(NAME_),
    [LAYOUT_BATCH] = BATCH_SLOTS(NAME_),
    [LAYOUT_SEND_WR] = SEND_WR_SLOTS(NAME_),
    [LAYOUT_RECV_WR] = RECV_WR_SLOTS(NAME_),
    [LAYOUT_SGE] = SGE_SLOTS(NAME_),
    [LAYOUT_WC] = WC_SLOTS(NAME_),
};

const char *layout_names(int id)
{
    if (id < 0 || id >= LAYOUT_COUNT) {
        return NULL;
    }
    return layout_name_lists[id];
}
