package io.rdmatrace.analyzer.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.rdmatrace.analyzer.AnalysisDatabase;
import io.rdmatrace.analyzer.AnalysisResult;
import io.rdmatrace.analyzer.Severity;
import io.rdmatrace.analyzer.fixture.Analysis;
import io.rdmatrace.analyzer.fixture.CmCapture;
import io.rdmatrace.analyzer.fixture.CmCapture.Fault;

/**
 * The rdma_cm rules on two recorded rdma_cm programs built in memory ({@link CmCapture}): each
 * fault is found by its rule, on the right host, with the right evidence, and the clean exchange
 * gives no finding at all.
 */
class CmRulesTest {

    @Test
    void cleanExchange_noFindings() throws Exception {
        assertThat(findings(Fault.NONE)).filteredOn(f -> !f.startsWith("info")).isEmpty();
    }

    @Test
    void consumerReject_citesThePrivateDataThePeerSent() throws Exception {
        AnalysisResult r = run(Fault.CONSUMER_REJECT);
        assertThat(Analysis.summary(r)).contains("cm-rejected cli 0x000031");
        assertThat(Analysis.rows(r, "cm-rejected")).singleElement().asString()
                .contains("cli connected to " + CmCapture.SERVER_ADDR + ": RDMA_CM_EVENT_REJECTED, reason 28")
                .contains("the peer application refused it (rdma_reject at srv#")
                .contains("private data 148 bytes \"" + CmCapture.REJECT_PDATA + "\"");
    }

    @Test
    void privateDataTooLong_connectFails_limitNamed() throws Exception {
        AnalysisResult r = run(Fault.PDATA_TOO_LONG);
        assertThat(Analysis.rows(r, "cm-private-data")).singleElement().asString()
                .startsWith("cli|0x000031|[cli#")
                .endsWith("cli rdma_connect to " + CmCapture.SERVER_ADDR
                        + " passed 64 bytes of private data; a REQ carries at most 56: the call failed with EINVAL");
        // 9 bytes sent, 56 received (padded), 11 rejected with: within the limits, not reported
        assertThat(Analysis.rows(run(Fault.CONSUMER_REJECT), "cm-private-data")).isEmpty();
    }

    @Test
    void portSpaceMismatch_noListenerNamesTheListenersPortSpace() throws Exception {
        assertThat(Analysis.rows(run(Fault.PORT_SPACE_UDP), "cm-no-listener")).singleElement().asString()
                .contains("cli connected to " + CmCapture.SERVER_ADDR + " (RDMA_PS_UDP): RDMA_CM_EVENT_UNREACHABLE")
                .contains("srv listens on " + CmCapture.SERVER_ADDR + " (RDMA_PS_TCP) instead");
    }

    @Test
    void addrError_resolveError() throws Exception {
        AnalysisResult r = run(Fault.ADDR_ERROR);
        assertThat(Analysis.summary(r)).contains("cm-resolve-error cli -");
        assertThat(Analysis.rows(r, "cm-resolve-error")).singleElement().asString()
                .contains("cli rdma_resolve_addr to " + CmCapture.SERVER_ADDR + " failed: RDMA_CM_EVENT_ADDR_ERROR, status -19 (ENODEV)")
                .contains("no RDMA device owns or routes to this address");
    }

    @Test
    void nobodyAnswers_unreachable() throws Exception {
        assertThat(Analysis.rows(run(Fault.UNREACHABLE), "cm-unreachable")).singleElement().asString()
                .contains("cli connected to " + CmCapture.SERVER_ADDR + ": RDMA_CM_EVENT_UNREACHABLE, status -110 (ETIMEDOUT)")
                .contains("no CM answered within the response timeout and retries")
                .contains("no loaded trace listens on 127.41.7.1");
    }

    @Test
    void acceptMissing_onTheServer_citingTheClientsTimeout() throws Exception {
        AnalysisResult r = run(Fault.NO_ACCEPT);
        assertThat(Analysis.rows(r, "cm-accept-missing")).singleElement().asString()
                .startsWith("srv|0x000021|")
                .contains("srv got RDMA_CM_EVENT_CONNECT_REQUEST from " + CmCapture.CLIENT_ADDR
                        + " on " + CmCapture.SERVER_ADDR + " and never called rdma_accept or rdma_reject on it")
                .contains("cli's connect ended RDMA_CM_EVENT_UNREACHABLE -110 60.0 s after the request");
        assertThat(Analysis.rows(r, "cm-unreachable")).singleElement().asString()
                .contains("srv's CM received the request (srv#").contains("never accepted it in time (cm-accept-missing)");
        assertThat(Analysis.rows(run(Fault.NONE), "cm-accept-missing")).isEmpty();
    }

    @Test
    void acceptLate_warned() throws Exception {
        AnalysisResult r = run(Fault.LATE_ACCEPT);
        assertThat(Analysis.rows(r, "cm-accept-late")).singleElement().asString()
                .startsWith("srv|0x000021|")
                .contains("srv accepted the connect request from " + CmCapture.CLIENT_ADDR + " 3.0 s after RDMA_CM_EVENT_CONNECT_REQUEST");
        assertThat(Analysis.rows(r, "cm-accept-missing")).isEmpty();
        assertThat(Analysis.rows(run(Fault.NONE), "cm-accept-late")).isEmpty();
    }

    @Test
    void disconnectedMidway_flushedSend_peerDisconnectCited() throws Exception {
        AnalysisResult r = run(Fault.DISCONNECT_MIDWAY);
        assertThat(Analysis.rows(r, "cm-disconnected")).singleElement().asString()
                .startsWith("srv|0x000021|[cli#")
                .contains("srv's connection to " + CmCapture.CLIENT_ADDR + " (QP 0x000021) got RDMA_CM_EVENT_DISCONNECTED: cli called rdma_disconnect")
                .contains("while 1 send(s) were in flight; they completed IBV_WC_WR_FLUSH_ERR (first wr_id 2)");
        assertThat(Analysis.rows(run(Fault.NONE), "cm-disconnected")).isEmpty();
    }

    @Test
    void attrOverridden_byHandAfterTheCm_reportedOnce() throws Exception {
        AnalysisResult r = run(Fault.OVERRIDE_RNR_TIMER);
        assertThat(Analysis.rows(r, "cm-attr-overridden")).singleElement().asString()
                .startsWith("cli|0x000031|")
                .contains("cli QP 0x000031: rdma_cm set min_rnr_timer = 12, then the program's own ibv_modify_qp RTS->RTS forced min_rnr_timer = 1");
        assertThat(Analysis.rows(r, "attr-rewritten")).as("reported once, by the CM rule").isEmpty();
    }

    private static List<String> findings(Fault fault) throws Exception {
        AnalysisResult r = run(fault);
        return r.findings().stream().map(f -> f.severity().name().toLowerCase() + " " + f.ruleId() + " " + f.message()).toList();
    }

    private static AnalysisResult run(Fault fault) throws Exception {
        try (AnalysisDatabase db = AnalysisDatabase.inMemory()) {
            AnalysisResult r = CmCapture.analyze(db, new CmCapture(fault).build());
            assertThat(r.ruleProblems()).as("rule problems").isEmpty();
            return r;
        }
    }
}
