package io.rdmatrace.cli;

import java.io.PrintWriter;
import java.util.List;

import io.rdmatrace.analyzer.report.Json;
import io.rdmatrace.verbs.DeviceAttr;
import io.rdmatrace.verbs.IbvGidEntry;
import io.rdmatrace.verbs.PortAttr;

/**
 * Prints a {@link DevicesReport}: as text shaped like {@code ibv_devinfo -v}, or as JSON with a
 * stable schema ({@value #SCHEMA}; keys are only ever added, never renamed or removed).
 */
final class DevicesFormat {
    static final String SCHEMA = "rdmatrace.devices/1";

    private DevicesFormat() {
    }

    // ---- text --------------------------------------------------------------------------------

    static void text(DevicesReport report, PrintWriter out) {
        out.printf("library: %s -> %s%n", report.requestedLibrary(), report.loadedLibrary());
        for (DevicesReport.DeviceEntry d : report.devices()) {
            out.println();
            out.printf("hca_id: %s%n", d.name());
            if (d.error() != null) {
                out.printf("\terror: %s%n", d.error());
                continue;
            }
            DeviceAttr a = d.attr();
            line(out, 1, "transport", d.transportType());
            line(out, 1, "node_type", d.nodeType());
            line(out, 1, "fw_ver", a.fwVer());
            line(out, 1, "node_guid", guid(a.nodeGuid()));
            line(out, 1, "sys_image_guid", guid(a.sysImageGuid()));
            line(out, 1, "vendor_id", String.format("0x%04x", a.vendorId()));
            line(out, 1, "vendor_part_id", Integer.toUnsignedString(a.vendorPartId()));
            line(out, 1, "hw_ver", String.format("0x%x", a.hwVer()));
            line(out, 1, "phys_port_cnt", Integer.toString(a.physPortCnt()));
            line(out, 1, "max_mr_size", "0x" + Long.toHexString(a.maxMrSize()));
            line(out, 1, "page_size_cap", "0x" + Long.toHexString(a.pageSizeCap()));
            line(out, 1, "max_qp", Integer.toString(a.maxQp()));
            line(out, 1, "max_qp_wr", Integer.toString(a.maxQpWr()));
            line(out, 1, "device_cap_flags", String.format("0x%08x", a.deviceCapFlags()));
            line(out, 1, "max_sge", Integer.toString(a.maxSge()));
            line(out, 1, "max_sge_rd", Integer.toString(a.maxSgeRd()));
            line(out, 1, "max_cq", Integer.toString(a.maxCq()));
            line(out, 1, "max_cqe", Integer.toString(a.maxCqe()));
            line(out, 1, "max_mr", Integer.toString(a.maxMr()));
            line(out, 1, "max_pd", Integer.toString(a.maxPd()));
            line(out, 1, "max_qp_rd_atom", Integer.toString(a.maxQpRdAtom()));
            line(out, 1, "max_res_rd_atom", Integer.toString(a.maxResRdAtom()));
            line(out, 1, "max_qp_init_rd_atom", Integer.toString(a.maxQpInitRdAtom()));
            line(out, 1, "atomic_cap", a.atomicCap().ibvName() + " (" + a.atomicCap().value() + ")");
            line(out, 1, "max_mw", Integer.toString(a.maxMw()));
            line(out, 1, "max_ah", Integer.toString(a.maxAh()));
            line(out, 1, "max_srq", Integer.toString(a.maxSrq()));
            line(out, 1, "max_srq_wr", Integer.toString(a.maxSrqWr()));
            line(out, 1, "max_srq_sge", Integer.toString(a.maxSrqSge()));
            line(out, 1, "max_pkeys", Integer.toString(a.maxPkeys()));
            line(out, 1, "local_ca_ack_delay", Integer.toString(a.localCaAckDelay()));
            for (DevicesReport.PortEntry port : d.ports()) {
                port(out, port);
            }
        }
        out.flush();
    }

    private static void port(PrintWriter out, DevicesReport.PortEntry port) {
        PortAttr p = port.attr();
        out.printf("\t\tport: %d%n", port.portNum());
        line(out, 3, "state", p.state().ibvName().substring("IBV_".length()) + " (" + p.state().value() + ")");
        line(out, 3, "max_mtu", p.maxMtu().bytes() + " (" + p.maxMtu().value() + ")");
        line(out, 3, "active_mtu", p.activeMtu().bytes() + " (" + p.activeMtu().value() + ")");
        line(out, 3, "sm_lid", Integer.toString(p.smLid()));
        line(out, 3, "port_lid", Integer.toString(p.lid()));
        line(out, 3, "port_lmc", String.format("0x%02x", p.lmc()));
        line(out, 3, "link_layer", p.linkLayer().text());
        line(out, 3, "max_msg_sz", "0x" + Long.toHexString(p.maxMsgSz()));
        line(out, 3, "port_cap_flags", String.format("0x%08x", p.portCapFlags()));
        line(out, 3, "port_cap_flags2", String.format("0x%04x", p.portCapFlags2()));
        line(out, 3, "max_vl_num", Integer.toString(p.maxVlNum()));
        line(out, 3, "bad_pkey_cntr", "0x" + Long.toHexString(p.badPkeyCntr()));
        line(out, 3, "qkey_viol_cntr", "0x" + Long.toHexString(p.qkeyViolCntr()));
        line(out, 3, "sm_sl", Integer.toString(p.smSl()));
        line(out, 3, "pkey_tbl_len", Integer.toString(p.pkeyTblLen()));
        line(out, 3, "gid_tbl_len", Integer.toString(p.gidTblLen()));
        line(out, 3, "subnet_timeout", Integer.toString(p.subnetTimeout()));
        line(out, 3, "init_type_reply", Integer.toString(p.initTypeReply()));
        line(out, 3, "active_width", p.activeWidth() + " (" + width(p.activeWidth()) + ")");
        line(out, 3, "active_speed", p.activeSpeed() + " (" + speed(p.activeSpeed()) + ")");
        line(out, 3, "phys_state", physState(p.physState()) + " (" + p.physState() + ")");
        for (IbvGidEntry g : port.gids()) {
            line(out, 3, String.format("GID[%3d]", g.gidIndex()), g.gid() + ", " + g.gidType().text()
                    + g.gid().ipv4().map(ip -> " (" + ip + ")").orElse(""));
        }
    }

    private static void line(PrintWriter out, int indent, String key, String value) {
        out.printf("%s%-24s%s%n", "\t".repeat(indent), key + ":", value);
    }

    /** A GUID as ibv_devinfo prints it: four groups of four hex digits. */
    static String guid(long guid) {
        String hex = String.format("%016x", guid);
        return hex.substring(0, 4) + ":" + hex.substring(4, 8) + ":" + hex.substring(8, 12) + ":" + hex.substring(12);
    }

    static String width(int code) {
        return switch (code) {
            case 1 -> "1X";
            case 2 -> "4X";
            case 4 -> "8X";
            case 8 -> "12X";
            case 16 -> "2X";
            default -> "invalid width";
        };
    }

    static String speed(int code) {
        return switch (code) {
            case 1 -> "2.5 Gbps";
            case 2 -> "5.0 Gbps";
            case 4, 8 -> "10.0 Gbps";
            case 16 -> "14.0 Gbps";
            case 32 -> "25.0 Gbps";
            case 64 -> "50.0 Gbps";
            case 128 -> "100.0 Gbps";
            default -> "invalid speed";
        };
    }

    static String physState(int code) {
        return switch (code) {
            case 1 -> "SLEEP";
            case 2 -> "POLLING";
            case 3 -> "DISABLED";
            case 4 -> "PORT_CONFIGURATION TRAINING";
            case 5 -> "LINK_UP";
            case 6 -> "LINK_ERROR_RECOVERY";
            case 7 -> "PHY TEST";
            default -> "invalid physical state";
        };
    }

    // ---- JSON --------------------------------------------------------------------------------

    static void json(DevicesReport report, PrintWriter out) {
        StringBuilder j = new StringBuilder(4096);
        j.append("{\"schema\":").append(str(SCHEMA));
        j.append(",\"library\":{\"requested\":").append(str(report.requestedLibrary()))
                .append(",\"loaded\":").append(str(report.loadedLibrary()))
                .append(",\"softverbs\":").append(report.softverbs()).append('}');
        j.append(",\"devices\":[");
        List<DevicesReport.DeviceEntry> devices = report.devices();
        for (int i = 0; i < devices.size(); i++) {
            if (i > 0) {
                j.append(',');
            }
            device(j, devices.get(i));
        }
        j.append("]}");
        out.println(j);
        out.flush();
    }

    private static void device(StringBuilder j, DevicesReport.DeviceEntry d) {
        j.append("{\"name\":").append(str(d.name()))
                .append(",\"node_guid\":").append(str(guid(d.guid())))
                .append(",\"node_type\":").append(str(d.nodeType()))
                .append(",\"transport\":").append(str(d.transportType()))
                .append(",\"error\":").append(d.error() == null ? "null" : str(d.error()));
        DeviceAttr a = d.attr();
        if (a != null) {
            j.append(",\"fw_ver\":").append(str(a.fwVer()))
                    .append(",\"sys_image_guid\":").append(str(guid(a.sysImageGuid())))
                    .append(",\"vendor_id\":").append(Integer.toUnsignedString(a.vendorId()))
                    .append(",\"vendor_part_id\":").append(Integer.toUnsignedString(a.vendorPartId()))
                    .append(",\"hw_ver\":").append(Integer.toUnsignedString(a.hwVer()))
                    .append(",\"phys_port_cnt\":").append(a.physPortCnt())
                    .append(",\"limits\":{")
                    .append("\"max_mr_size\":").append(Long.toUnsignedString(a.maxMrSize()))
                    .append(",\"page_size_cap\":").append(Long.toUnsignedString(a.pageSizeCap()))
                    .append(",\"max_qp\":").append(a.maxQp())
                    .append(",\"max_qp_wr\":").append(a.maxQpWr())
                    .append(",\"device_cap_flags\":").append(Integer.toUnsignedString(a.deviceCapFlags()))
                    .append(",\"max_sge\":").append(a.maxSge())
                    .append(",\"max_sge_rd\":").append(a.maxSgeRd())
                    .append(",\"max_cq\":").append(a.maxCq())
                    .append(",\"max_cqe\":").append(a.maxCqe())
                    .append(",\"max_mr\":").append(a.maxMr())
                    .append(",\"max_pd\":").append(a.maxPd())
                    .append(",\"max_qp_rd_atom\":").append(a.maxQpRdAtom())
                    .append(",\"max_res_rd_atom\":").append(a.maxResRdAtom())
                    .append(",\"max_qp_init_rd_atom\":").append(a.maxQpInitRdAtom())
                    .append(",\"atomic_cap\":").append(str(a.atomicCap().name()))
                    .append(",\"max_mw\":").append(a.maxMw())
                    .append(",\"max_ah\":").append(a.maxAh())
                    .append(",\"max_srq\":").append(a.maxSrq())
                    .append(",\"max_srq_wr\":").append(a.maxSrqWr())
                    .append(",\"max_srq_sge\":").append(a.maxSrqSge())
                    .append(",\"max_pkeys\":").append(a.maxPkeys())
                    .append(",\"local_ca_ack_delay\":").append(a.localCaAckDelay())
                    .append('}');
        }
        j.append(",\"ports\":[");
        for (int i = 0; i < d.ports().size(); i++) {
            if (i > 0) {
                j.append(',');
            }
            port(j, d.ports().get(i));
        }
        j.append("]}");
    }

    private static void port(StringBuilder j, DevicesReport.PortEntry port) {
        PortAttr p = port.attr();
        j.append("{\"port\":").append(port.portNum())
                .append(",\"state\":").append(str(p.state().name()))
                .append(",\"state_value\":").append(p.state().value())
                .append(",\"phys_state\":").append(p.physState())
                .append(",\"max_mtu\":").append(p.maxMtu().bytes())
                .append(",\"active_mtu\":").append(p.activeMtu().bytes())
                .append(",\"link_layer\":").append(str(p.linkLayer().text()))
                .append(",\"lid\":").append(p.lid())
                .append(",\"sm_lid\":").append(p.smLid())
                .append(",\"lmc\":").append(p.lmc())
                .append(",\"gid_tbl_len\":").append(p.gidTblLen())
                .append(",\"pkey_tbl_len\":").append(p.pkeyTblLen())
                .append(",\"max_msg_sz\":").append(p.maxMsgSz())
                .append(",\"port_cap_flags\":").append(Integer.toUnsignedString(p.portCapFlags()))
                .append(",\"active_width\":").append(p.activeWidth())
                .append(",\"active_speed\":").append(p.activeSpeed())
                .append(",\"gids\":[");
        for (int i = 0; i < port.gids().size(); i++) {
            IbvGidEntry g = port.gids().get(i);
            if (i > 0) {
                j.append(',');
            }
            j.append("{\"index\":").append(g.gidIndex())
                    .append(",\"gid\":").append(str(g.gid().toString()))
                    .append(",\"type\":").append(str(g.gidType().text()))
                    .append(",\"ipv4\":").append(g.gid().ipv4().map(DevicesFormat::str).orElse("null"))
                    .append('}');
        }
        j.append("]}");
    }

    /** A JSON string literal. */
    static String str(String s) {
        return Json.string(s);
    }
}
