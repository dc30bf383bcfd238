package io.rdmatrace.analyzer.export;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.rdmatrace.trace.names.GidText;

/**
 * Consistent pseudonyms for one bundle: the same original always gets the same pseudonym,
 * different originals get different ones, and no pseudonym equals any original value of the
 * trace. Candidates come from HMAC-SHA256 under a random per-bundle key that is never stored,
 * so the mapping cannot be recomputed (or brute-forced over a small space such as IPv4) from
 * the bundle.
 *
 * <p>Structure the rules rely on is kept: IPv4 addresses keep their /24 relations (same /24 in,
 * same /24 out) and land in 198.18.0.0/15 (RFC 2544, never a real host); a MAC-derived
 * EUI-64 keeps its {@code ff:fe} middle and its U/L and I/G bits; a GID keeps its kind (see
 * {@link #gid}); virtual addresses keep offsets inside a region ({@link AddressSpans}).
 */
final class Pseudonyms {
    private static final int PSEUDO_NET = 0xC6120000; // 198.18.0.0/15
    private static final int MAX_ATTEMPTS = 1 << 20;

    private final Mac mac;
    private final Set<Long> originalNumbers;
    private final Set<Integer> originalIpv4;
    private final Map<Integer, Integer> ipv4Prefix = new HashMap<>();
    private final Set<Integer> usedIpv4Prefix = new HashSet<>();
    private final Map<Integer, Integer> ipv4 = new HashMap<>();
    private final Set<Integer> usedIpv4 = new HashSet<>();
    private final Map<Long, Long> interfaceIds = new HashMap<>();
    private final Map<Long, Long> prefixes = new HashMap<>();
    private final Map<Long, Long> keys = new HashMap<>();
    private final Set<Long> usedNumbers = new HashSet<>();
    private final Map<String, String> hosts = new HashMap<>();
    private final Set<String> usedHosts = new HashSet<>();
    private final Set<String> originalHosts;
    private final AddressSpans addresses;

    /** With a fresh random key (what export uses). */
    static Pseudonyms random(SensitiveValues originals) {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        return new Pseudonyms(key, originals);
    }

    Pseudonyms(byte[] key, SensitiveValues originals) {
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available in this JVM", e);
        }
        this.originalNumbers = originals.allNumbers();
        this.originalIpv4 = Set.copyOf(originals.ipv4());
        this.originalHosts = Set.copyOf(originals.hostNames());
        this.addresses = new AddressSpans(originals.regions(), originalNumbers, this::hmac);
    }

    /** 64 pseudo-random bits for (category, value, attempt). */
    long hmac(String category, long value, int attempt) {
        mac.update(category.getBytes(StandardCharsets.UTF_8));
        mac.update((byte) 0);
        mac.update(ByteBuffer.allocate(12).putLong(value).putInt(attempt).array());
        return ByteBuffer.wrap(mac.doFinal()).getLong();
    }

    private long hmac(String category, String value, int attempt) {
        mac.update(category.getBytes(StandardCharsets.UTF_8));
        mac.update((byte) 0);
        mac.update(value.getBytes(StandardCharsets.UTF_8));
        mac.update(ByteBuffer.allocate(4).putInt(attempt).array());
        return ByteBuffer.wrap(mac.doFinal()).getLong();
    }

    /** An IPv4 address (as a 32-bit int); 0.0.0.0 and 255.255.255.255 name no host and stay. */
    int ipv4(int original) {
        if (original == 0 || original == -1) {
            return original;
        }
        Integer known = ipv4.get(original);
        if (known != null) {
            return known;
        }
        int prefix = ipv4Prefix.computeIfAbsent(original >>> 8, this::newIpv4Prefix);
        int hostByte = original & 0xff;
        int pseudo = -1;
        for (int attempt = 0; attempt < 256; attempt++) {
            // keep .0 and .255 (network/broadcast) where they were; others move to 1..254
            int b = hostByte == 0 || hostByte == 255 ? hostByte : 1 + (int) Math.floorMod(hmac("ipv4-host", original, attempt), 254L);
            int candidate = prefix << 8 | b;
            if (!usedIpv4.contains(candidate) && !originalIpv4.contains(candidate)) {
                pseudo = candidate;
                break;
            }
        }
        if (pseudo == -1) {
            throw new IllegalStateException("too many IPv4 addresses in one /24 to pseudonymise");
        }
        usedIpv4.add(pseudo);
        ipv4.put(original, pseudo);
        return pseudo;
    }

    private int newIpv4Prefix(int originalPrefix) {
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            int candidate = (PSEUDO_NET >>> 8) | (int) (hmac("ipv4-net", originalPrefix, attempt) & 0x1ff);
            if (usedIpv4Prefix.add(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("more than 512 distinct /24 networks in one trace");
    }

    /**
     * A 64-bit GUID or GID interface identifier. One mapping for both, so a link-local GID built
     * from the node GUID still matches it. A MAC-derived EUI-64 ({@code xx:xx:xx:ff:fe:xx:xx:xx})
     * stays MAC-derived.
     */
    long interfaceId(long original) {
        if (original == 0) {
            return 0;
        }
        Long known = interfaceIds.get(original);
        if (known != null) {
            return known;
        }
        boolean eui64 = (original >>> 24 & 0xffff) == 0xfffe;
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            long h = hmac("interface-id", original, attempt);
            long candidate;
            if (eui64) {
                long macBits = h & 0xffff_ffff_ffffL;
                long firstByte = (macBits >>> 40 & 0xfc) | (original >>> 56 & 0x03);
                macBits = firstByte << 40 | macBits & 0xff_ffff_ffffL;
                candidate = (macBits >>> 24) << 40 | 0xfffeL << 24 | macBits & 0xff_ffffL;
            } else {
                candidate = h;
            }
            if (candidate != 0 && fresh(candidate)) {
                interfaceIds.put(original, candidate);
                return candidate;
            }
        }
        throw new IllegalStateException("no free pseudonym for an interface id");
    }

    /** A 48-bit MAC address, through the EUI-64 it derives, so it matches GUIDs made from it. */
    long mac48(long original) {
        long eui = (original >>> 24) << 40 | 0xfffeL << 24 | original & 0xff_ffffL;
        long pseudo = interfaceId(eui);
        return (pseudo >>> 40) << 24 | pseudo & 0xff_ffffL;
    }

    /** The upper 64 bits of a global or unique-local GID: the top 16 bits (the address type) stay. */
    long gidPrefix(long original) {
        Long known = prefixes.get(original);
        if (known != null) {
            return known;
        }
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            long candidate = original & 0xffff_0000_0000_0000L | hmac("gid-prefix", original, attempt) & 0xffff_ffff_ffffL;
            if (candidate != original && fresh(candidate)) {
                prefixes.put(original, candidate);
                return candidate;
            }
        }
        throw new IllegalStateException("no free pseudonym for a GID prefix");
    }

    /**
     * A GID (IPv6 text): IPv4-mapped stays IPv4-mapped around the pseudonymised IPv4 address,
     * a link-local (fe80::/10) keeps its prefix with a pseudonymised interface id, any other
     * keeps its top 16 bits; the zero GID stays. Text that is no IPv6 address is returned as is.
     */
    String gid(String original) {
        byte[] b = GidText.parse(original);
        if (b == null || GidText.isZero(b)) {
            return original;
        }
        if (GidText.isIpv4Mapped(b)) {
            int v4 = ipv4(ByteBuffer.wrap(b, 12, 4).getInt());
            ByteBuffer.wrap(b, 12, 4).putInt(v4);
            return GidText.format(b);
        }
        if (!GidText.isLinkLocal(b)) {
            GidText.putHalf(b, 0, gidPrefix(GidText.half(b, 0)));
        }
        GidText.putHalf(b, 8, interfaceId(GidText.half(b, 8)));
        return GidText.format(b);
    }

    /** An lkey/rkey; 0 (no key) stays. */
    long key32(long original) {
        long value = original & 0xffff_ffffL;
        if (value == 0) {
            return original;
        }
        Long known = keys.get(value);
        if (known != null) {
            return known;
        }
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            long candidate = hmac("key", value, attempt) & 0xffff_ffffL;
            if (candidate != 0 && fresh(candidate)) {
                keys.put(value, candidate);
                return candidate;
            }
        }
        throw new IllegalStateException("no free pseudonym for a key");
    }

    /** A user-space virtual address or object handle ({@link AddressSpans}). */
    long address(long original) {
        return addresses.map(original);
    }

    boolean isAddress(long value) {
        return AddressSpans.isAddress(value);
    }

    /** A host name or host id: {@code host-} and six hex digits. */
    String host(String original) {
        String known = hosts.get(original);
        if (known != null) {
            return known;
        }
        for (int attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
            String candidate = String.format("host-%06x", hmac("host", original, attempt) & 0xff_ffff);
            if (!usedHosts.contains(candidate) && !originalHosts.contains(candidate)) {
                usedHosts.add(candidate);
                hosts.put(original, candidate);
                return candidate;
            }
        }
        throw new IllegalStateException("no free pseudonym for a host");
    }

    /** Original host names → pseudonyms assigned so far. */
    Map<String, String> hostMap() {
        return Map.copyOf(hosts);
    }

    int ipv4Count() {
        return ipv4.size();
    }

    int interfaceIdCount() {
        return interfaceIds.size();
    }

    int keyCount() {
        return keys.size();
    }

    AddressSpans addressSpans() {
        return addresses;
    }

    private boolean fresh(long candidate) {
        if (originalNumbers.contains(candidate) || usedNumbers.contains(candidate)) {
            return false;
        }
        usedNumbers.add(candidate);
        return true;
    }
}
