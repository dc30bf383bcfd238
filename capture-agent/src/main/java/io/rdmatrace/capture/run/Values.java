package io.rdmatrace.capture.run;

import io.rdmatrace.capture.config.PathMtu;
import io.rdmatrace.capture.config.Op;
import io.rdmatrace.capture.config.Symbols;
import io.rdmatrace.capture.scenario.Value;
import io.rdmatrace.trace.names.VerbsNames;
import io.rdmatrace.verbs.Gid;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;

/** Typed readings of resolved step values: numbers, enum names, flag lists, GIDs. */
final class Values {
    private Values() {
    }

    static long number(Value v, String what) {
        if (v instanceof Value.Num n) {
            return n.value();
        }
        Long n = Symbols.parseNumber(v.toString().trim());
        if (n == null) {
            throw new StepException(what + " must be a number, got '" + v + "'");
        }
        return n;
    }

    static int intValue(Value v, String what) {
        long n = number(v, what);
        if (n < Integer.MIN_VALUE || n > 0xFFFF_FFFFL) {
            throw new StepException(what + " does not fit 32 bits: " + n);
        }
        return (int) n;
    }

    static int qpState(Value v) {
        return v instanceof Value.Num n ? (int) n.value() : parse(() -> Symbols.parseEnum(VerbsNames.QP_STATE, v.toString())).intValue();
    }

    static int mtu(Value v) {
        if (v instanceof Value.Num n) {
            return n.value() >= 1 && n.value() <= 5 ? (int) n.value() : parse(() -> (long) PathMtu.parse(Long.toString(n.value()))).intValue();
        }
        return parse(() -> (long) PathMtu.parse(v.toString())).intValue();
    }

    static int accessFlags(Value v) {
        return v instanceof Value.Num n ? (int) n.value() : parse(() -> Symbols.parseFlags(VerbsNames.ACCESS_FLAGS, v.toString())).intValue();
    }

    static int attrMask(Value v) {
        return v instanceof Value.Num n ? (int) n.value() : parse(() -> Symbols.parseFlags(VerbsNames.QP_ATTR_MASK, v.toString())).intValue();
    }

    static int qpType(Value v) {
        if (v instanceof Value.Num n) {
            return (int) n.value();
        }
        return parse(() -> Symbols.parseEnum(VerbsNames.QP_TYPE, v.toString())).intValue();
    }

    static Op op(Value v) {
        String t = v.toString().trim().toUpperCase(Locale.ROOT);
        try {
            return Op.valueOf(t);
        } catch (IllegalArgumentException e) {
            throw new StepException("op must be send, write or read, got '" + v + "'");
        }
    }

    /** An IPv6 literal (::ffff:127.0.0.1, fe80::1, or 8 hex groups) as a GID; never a host name lookup. */
    static Gid gid(Value v) {
        String t = v.toString().trim();
        if (!t.contains(":")) {
            throw new StepException("a GID must be written as an IPv6 address (e.g. ::ffff:127.0.0.2), got '" + t + "'");
        }
        try {
            InetAddress a = InetAddress.getByName(t.startsWith("[") ? t : "[" + t + "]");
            if (a instanceof Inet4Address) {
                return Gid.ofIpv4(a.getAddress()); // Java folds ::ffff:a.b.c.d into IPv4
            }
            return Gid.of(a.getAddress());
        } catch (UnknownHostException e) {
            throw new StepException("not an IPv6 address: '" + t + "'");
        }
    }

    private interface Parse {
        Long get();
    }

    private static Long parse(Parse p) {
        try {
            return p.get();
        } catch (IllegalArgumentException e) {
            throw new StepException(e.getMessage());
        }
    }
}
