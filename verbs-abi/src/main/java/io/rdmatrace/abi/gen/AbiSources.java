package io.rdmatrace.abi.gen;

import io.rdmatrace.abi.CType;
import io.rdmatrace.abi.IbvEnum;
import io.rdmatrace.abi.QpField;
import io.rdmatrace.abi.TraceAttr;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Writes the sources that restate the verbs ABI model at build time, so each fact stays written once
 * in {@link QpField} and {@link IbvEnum}:
 * <ul>
 * <li>{@code c-header OUT}: the native modules' {@code verbs_abi.h}, the QP_ATTR and AH_ATTR slot lists with the
 * struct member each slot carries (the record format's layout and codec expand them) and the
 * {@code enum ibv_mtu} → bytes table;</li>
 * <li>{@code java-attr TEMPLATE OUT}: trace-format's {@code Attr} enum, the template with the
 * constants of every attribute a {@link TraceAttr} declares put in place of its marker line.</li>
 * </ul>
 * Run by the build (build/native.mk, trace-format's pom); a file is rewritten only when its text changes.
 */
public final class AbiSources {
    /** The line of the Attr template the generated constants replace. */
    static final String ATTR_MARKER = "// @QP_FIELD_ATTRS@";

    private AbiSources() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 2 && args[0].equals("c-header")) {
            write(Path.of(args[1]), cHeader());
        } else if (args.length == 3 && args[0].equals("java-attr")) {
            write(Path.of(args[2]), javaAttr(Files.readString(Path.of(args[1]), StandardCharsets.UTF_8)));
        } else {
            throw new IllegalArgumentException("usage: AbiSources c-header OUT | java-attr TEMPLATE OUT");
        }
    }

    /** The C header: X-macro lists in struct order, generated from the descriptors. */
    static String cHeader() {
        StringBuilder h = new StringBuilder();
        h.append("/* Generated from io.rdmatrace.abi.QpField and IbvEnum by io.rdmatrace.abi.gen.AbiSources: do not edit. */\n");
        h.append("#ifndef RDMATRACE_VERBS_ABI_H\n#define RDMATRACE_VERBS_ABI_H\n\n");
        h.append("/* ibv_qp_attr without its two ah_attr members, which follow as two AH_ATTR blocks: X(SLOT) */\n");
        h.append(list("QP_ATTR_SLOTS(X)", slots(QpField.Block.QP_ATTR)));
        h.append("/* the same with the member each slot carries: X(SLOT, member) */\n");
        h.append(list("QP_ATTR_MEMBERS(X)", members(QpField.Block.QP_ATTR, "", false)));
        List<String> ah = slots(QpField.Block.AH_ATTR);
        if (!ah.equals(slots(QpField.Block.ALT_AH_ATTR))) {
            throw new IllegalStateException("verbs ABI model: ah_attr and alt_ah_attr differ in their slots");
        }
        h.append("/* ibv_ah_attr (a GID is 16 raw bytes in two slots, network order): X(SLOT) */\n");
        h.append(list("AH_ATTR_SLOTS(X)", ah));
        h.append("/* its scalar members, X(SLOT, member), and its GIDs, X(FIRST_SLOT, member) */\n");
        h.append(list("AH_ATTR_MEMBERS(X)", members(QpField.Block.AH_ATTR, "ah_attr.", false)));
        h.append(list("AH_ATTR_GIDS(X)", members(QpField.Block.AH_ATTR, "ah_attr.", true)));
        List<String> mtus = new ArrayList<>();
        for (Map.Entry<Long, String> e : IbvEnum.MTU.entries().entrySet()) {
            mtus.add("X(" + e.getValue() + ", " + IbvEnum.mtuBytes(e.getKey()) + ")");
        }
        h.append("/* enum ibv_mtu and its bytes: X(IBV_MTU_256, 256) */\n");
        h.append(list("IBV_MTU_BYTES(X)", mtus));
        h.append("#endif\n");
        return h.toString();
    }

    private static List<String> slots(QpField.Block block) {
        List<String> slots = new ArrayList<>();
        for (QpField f : QpField.all()) {
            if (f.block() == block) {
                slots.add("X(" + f.slot() + ")");
                if (f.cType() == CType.GID) {
                    slots.add("X(" + secondGidSlot(f) + ")");
                }
            }
        }
        return slots;
    }

    private static List<String> members(QpField.Block block, String prefix, boolean gids) {
        List<String> members = new ArrayList<>();
        for (QpField f : QpField.all()) {
            if (f.block() == block && (f.cType() == CType.GID) == gids) {
                if (!f.cName().startsWith(prefix)) {
                    throw new IllegalStateException("verbs ABI model: " + f + " is not a member of " + prefix);
                }
                members.add("X(" + f.slot() + ", " + f.cName().substring(prefix.length()) + ")");
            }
        }
        return members;
    }

    private static String secondGidSlot(QpField f) {
        if (!f.slot().endsWith("_0")) {
            throw new IllegalStateException("verbs ABI model: the GID slot of " + f + " must end in _0");
        }
        return f.slot().substring(0, f.slot().length() - 1) + "1";
    }

    private static String list(String head, List<String> items) {
        StringBuilder sb = new StringBuilder("#define " + head);
        int col = sb.length();
        for (String item : items) {
            if (col + item.length() + 1 > 100) {
                sb.append(" \\\n   ");
                col = 3;
            }
            sb.append(' ').append(item);
            col += item.length() + 1;
        }
        return sb.append("\n\n").toString();
    }

    /** The Attr enum: the template with the constants of the attributes the descriptors declare, by code. */
    static String javaAttr(String template) {
        List<QpField> declared = new ArrayList<>();
        for (QpField f : QpField.all()) {
            if (f.trace().declaresAttr()) {
                declared.add(f);
            }
        }
        declared.sort(Comparator.comparingInt(f -> f.trace().code()));
        StringBuilder constants = new StringBuilder();
        constants.append("    // generated from io.rdmatrace.abi.QpField (its TraceAttr): the code is written there\n");
        for (QpField f : declared) {
            TraceAttr t = f.trace();
            constants.append("    ").append(t.name()).append('(').append(t.code()).append(", ").append(kind(f));
            String names = names(f);
            if (names != null) {
                constants.append(", ").append(names);
            }
            constants.append(", \"").append(t.description().replace("\\", "\\\\").replace("\"", "\\\""))
                    .append("\"),\n");
        }
        int at = template.indexOf(ATTR_MARKER);
        if (at < 0 || template.indexOf(ATTR_MARKER, at + 1) >= 0) {
            throw new IllegalArgumentException("the Attr template must hold the line '" + ATTR_MARKER + "' once");
        }
        int lineStart = template.lastIndexOf('\n', at) + 1;
        int lineEnd = template.indexOf('\n', at) + 1;
        return "// Generated from src/main/java-templates and io.rdmatrace.abi.QpField: edit those, not this file.\n"
                + template.substring(0, lineStart) + constants + template.substring(lineEnd);
    }

    /** The AttrKind a field's value records as. */
    static String kind(QpField f) {
        if (f.trace().render() != null) {
            return f.trace().render();
        }
        return switch (f.kind()) {
            case QP_STATE, MTU, MIG_STATE -> "ENUM";
            case ACCESS_FLAGS -> "FLAGS";
            case BOOL -> "BOOL";
            case PEER_QPN -> "QPN24";
            case PEER_GID -> "TEXT";
            case NUMBER -> "U32";
        };
    }

    /** The VerbsNames table an ENUM or FLAGS field renders with (named as its ValueKind), else null. */
    static String names(QpField f) {
        return switch (f.kind()) {
            case QP_STATE, MTU, MIG_STATE, ACCESS_FLAGS -> "VerbsNames." + f.kind().name();
            default -> null;
        };
    }

    private static void write(Path out, String text) throws IOException {
        if (Files.exists(out) && Files.readString(out, StandardCharsets.UTF_8).equals(text)) {
            return;
        }
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, text, StandardCharsets.UTF_8);
    }
}
