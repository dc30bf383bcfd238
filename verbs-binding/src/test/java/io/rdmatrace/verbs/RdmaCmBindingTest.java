package io.rdmatrace.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The librdmacm binding against softverbs' librdmacm, both ends in this JVM (one CM serves both
 * devices): a connect carries its private data to the listener's CONNECT_REQUEST, a reject carries
 * reason 28 and its private data back, and the listener sees every call and event in the blocks
 * the tracing librdmacm records.
 */
class RdmaCmBindingTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @Test
    void connectThenReject_privateDataBothWays_callsAndEventsRecorded() {
        assumeThat(RdmaCmBindingTest.class.getResource("/" + NativeResources.SOFTVERBS_RDMACM))
                .as("softverbs' librdmacm is not built (make -C softverbs rdmacm)").isNotNull();
        List<RdmaCmCall> calls = new ArrayList<>();
        List<RdmaCmEvent> events = new ArrayList<>();
        CmListener listener = new CmListener() {
            @Override
            public void onCmCall(RdmaCmCall call) {
                calls.add(call);
            }

            @Override
            public void onCmEvent(RdmaCmEvent event) {
                events.add(event);
            }
        };
        int port = 20000 + (int) (ProcessHandle.current().pid() % 20000);
        try (SoftDevices soft = SoftDevices.open("cmb");
             RdmaCm cm = RdmaCm.open(CmLibrary.select(true, null), listener)) {
            CmChannel ch = cm.tryCreateEventChannel().orThrow();
            CmId server = ch.tryCreateId(RdmaCm.PS_TCP).orThrow();
            assertThat(server.bind(soft.ipA, port).ok()).isTrue();
            assertThat(server.listen(1).ok()).isTrue();
            CmId client = ch.tryCreateId(RdmaCm.PS_TCP).orThrow();
            assertThat(client.resolveAddr(soft.ipB, soft.ipA, port, 2000).ok()).isTrue();
            assertThat(take(ch, 0).event()).isEqualTo(0); // ADDR_RESOLVED
            assertThat(client.resolveRoute(2000).ok()).isTrue();
            assertThat(take(ch, 2).event()).isEqualTo(2); // ROUTE_RESOLVED
            byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
            assertThat(client.connect(new CmConnParam(0, 0, 7, 7, 0x123, hello)).ok()).isTrue();
            RdmaCmEvent request = take(ch, 4); // CONNECT_REQUEST
            assertThat(request.privateData()).startsWith(hello);
            assertThat(request.get(CmSlots.Event.PEER_QP_NUM)).isEqualTo(0x123);
            assertThat(request.dst()).isEqualTo(soft.ipB + ":" + request.dst().substring(request.dst().indexOf(':') + 1));
            CmId conn = ch.idOf(request);
            byte[] no = "no thanks".getBytes(StandardCharsets.US_ASCII);
            assertThat(conn.reject(no).ok()).isTrue();
            RdmaCmEvent rejected = take(ch, 8); // REJECTED
            assertThat(rejected.status()).isEqualTo(28);
            assertThat(rejected.privateData()).startsWith(no);
            assertThat(rejected.qpNum()).as("the QP the connect named").isEqualTo(0x123);
            assertThat(conn.destroy().ok()).isTrue();
            assertThat(client.destroy().ok()).isTrue();
            assertThat(server.destroy().ok()).isTrue();
            assertThat(ch.destroy().ok()).isTrue();
        }
        assertThat(calls).extracting(RdmaCmCall::function).contains(CmFunction.rdma_create_event_channel,
                CmFunction.rdma_create_id, CmFunction.rdma_bind_addr, CmFunction.rdma_listen,
                CmFunction.rdma_resolve_addr, CmFunction.rdma_resolve_route, CmFunction.rdma_connect,
                CmFunction.rdma_ack_cm_event, CmFunction.rdma_reject, CmFunction.rdma_destroy_id,
                CmFunction.rdma_destroy_event_channel);
        RdmaCmCall connect = calls.stream().filter(c -> c.function() == CmFunction.rdma_connect).findFirst().orElseThrow();
        assertThat(connect.arg(6)).isEqualTo(0x123);
        assertThat(connect.arg(3)).isEqualTo(7);
        assertThat(connect.privateDataLen()).isEqualTo(5);
        assertThat(connect.dst()).endsWith(":" + port);
        assertThat(events).extracting(RdmaCmEvent::event).containsSubsequence(0, 2, 4, 8);
    }

    /** The next event, which must be of {@code type}; acked. */
    private static RdmaCmEvent take(CmChannel ch, int type) {
        RdmaCmEvent e = ch.next(WAIT);
        assertThat(e).as("an event within " + WAIT).isNotNull();
        ch.ack(e);
        assertThat(e.event()).as("event type (status " + e.status() + ")").isEqualTo(type);
        return e;
    }
}
