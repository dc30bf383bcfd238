package io.rdmatrace.verbs;

/**
 * One finished control-path verb, as a {@link VerbsListener} sees it: the inputs, the outputs
 * (null or 0 when the call failed) and the {@link CallStatus}. Handles are the native pointers of
 * the objects ({@code handle()} on each resource), stable for the object's life, so a recorder can
 * tie calls together. The data path (post_send, post_recv, poll_cq) is observed through the
 * listener's batch callbacks instead, which do not allocate.
 */
public sealed interface VerbCall {

    /** The libibverbs function, e.g. {@code ibv_modify_qp}. */
    String verb();

    CallStatus status();

    record GetDeviceList(String library, int numDevices, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_get_device_list";
        }
    }

    record OpenDevice(String deviceName, long contextHandle, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_open_device";
        }
    }

    record CloseDevice(long contextHandle, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_close_device";
        }
    }

    record QueryDevice(long contextHandle, DeviceAttr attr, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_query_device";
        }
    }

    record QueryPort(long contextHandle, int portNum, PortAttr attr, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_query_port";
        }
    }

    record QueryGid(long contextHandle, int portNum, int index, Gid gid, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_query_gid";
        }
    }

    record QueryGidEx(long contextHandle, int portNum, int index, IbvGidEntry entry, CallStatus status)
            implements VerbCall {
        public String verb() {
            return "ibv_query_gid_ex";
        }
    }

    record QueryPkey(long contextHandle, int portNum, int index, int pkey, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_query_pkey";
        }
    }

    record AllocPd(long contextHandle, long pdHandle, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_alloc_pd";
        }
    }

    record DeallocPd(long pdHandle, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_dealloc_pd";
        }
    }

    record RegMr(long pdHandle, long address, long length, int access, long mrHandle, int lkey, int rkey,
                 CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_reg_mr";
        }
    }

    record DeregMr(long mrHandle, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_dereg_mr";
        }
    }

    record CreateCompChannel(long contextHandle, long channelHandle, int fd, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_create_comp_channel";
        }
    }

    record DestroyCompChannel(long channelHandle, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_destroy_comp_channel";
        }
    }

    record CreateCq(long contextHandle, int cqe, long channelHandle, int compVector, long cqHandle, int actualCqe,
                    CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_create_cq";
        }
    }

    record DestroyCq(long cqHandle, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_destroy_cq";
        }
    }

    record ReqNotifyCq(long cqHandle, boolean solicitedOnly, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_req_notify_cq";
        }
    }

    /** {@code cqHandle} is 0 when the wait timed out (then the status is ok and the duration 0). */
    record GetCqEvent(long channelHandle, long cqHandle, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_get_cq_event";
        }
    }

    record AckCqEvents(long cqHandle, int count, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_ack_cq_events";
        }
    }

    /** {@code granted} is the caps create_qp wrote back (null on failure). */
    record CreateQp(long pdHandle, QpInitAttr init, long qpHandle, int qpNum, QpCap granted, CallStatus status)
            implements VerbCall {
        public String verb() {
            return "ibv_create_qp";
        }
    }

    record ModifyQp(long qpHandle, int qpNum, QpAttr attr, QpAttrMask mask, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_modify_qp";
        }
    }

    record QueryQp(long qpHandle, int qpNum, QpAttrMask mask, QpQuery result, CallStatus status)
            implements VerbCall {
        public String verb() {
            return "ibv_query_qp";
        }
    }

    record DestroyQp(long qpHandle, int qpNum, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_destroy_qp";
        }
    }

    record CreateAh(long pdHandle, AhAttr attr, long ahHandle, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_create_ah";
        }
    }

    record DestroyAh(long ahHandle, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_destroy_ah";
        }
    }

    /** {@code event} is null when the wait timed out. The event is acknowledged in the same call. */
    record GetAsyncEvent(long contextHandle, IbvAsyncEvent event, CallStatus status) implements VerbCall {
        public String verb() {
            return "ibv_get_async_event";
        }
    }
}
