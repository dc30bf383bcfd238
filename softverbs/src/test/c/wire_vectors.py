#!/usr/bin/env python3
"""Prints the expected RoCEv2 packets used by test_wire_vectors.c.

Written independently of the C codec, straight from the wire layout (rdma-facts §5.2-5.4) and
the "oracle-friendly restatement" of the ICRC (rdma-facts §5.6):
  ICRC bytes = little-endian zlib.crc32(b'\\xff'*8 + masked IPv4 hdr + masked UDP hdr
                                        + BTH with byte 4 = 0xFF + ext headers + payload + pad)
with the IPv4 header the kernel sends for a DF datagram from an unconnected socket (ID 0).
Run:  python3 softverbs/src/test/c/wire_vectors.py   (output pasted into test_wire_vectors.c)
"""
import socket
import struct
import zlib


def ipv4_udp(src, dst, sport, dport, udp_payload_len):
    total = 20 + 8 + udp_payload_len
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, total, 0, 0x4000, 64, 17, 0,
                     socket.inet_aton(src), socket.inet_aton(dst))
    udp = struct.pack("!HHHH", sport, dport, 8 + udp_payload_len, 0)
    return ip, udp


def icrc(ip, udp, body):
    ip = bytearray(ip); udp = bytearray(udp); body = bytearray(body)
    ip[1] = 0xFF; ip[8] = 0xFF; ip[10:12] = b"\xff\xff"
    udp[6:8] = b"\xff\xff"
    body[4] = 0xFF
    return struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(ip) + bytes(udp) + bytes(body)))


def bth(opcode, se, mig, pad, pkey, fecn, qpn, ackreq, psn):
    b1 = (0x80 if se else 0) | (0x40 if mig else 0) | (pad << 4)
    return struct.pack("!BBHB", opcode, b1, pkey, 0x80 if fecn else 0) + qpn.to_bytes(3, "big") \
        + bytes([0x80 if ackreq else 0]) + psn.to_bytes(3, "big")


def packet(flow, opcode, ext=b"", payload=b"", se=0, mig=0, pkey=0xFFFF, fecn=0, qpn=0,
           ackreq=0, psn=0):
    pad = (-(12 + len(ext) + len(payload))) % 4
    body = bth(opcode, se, mig, pad, pkey, fecn, qpn, ackreq, psn) + ext + payload + b"\0" * pad
    ip, udp = ipv4_udp(*flow, len(body) + 4)
    return body + icrc(ip, udp, body)


A_TO_B = ("127.0.0.1", "127.0.0.2", 4791, 4791)
B_TO_A = ("127.0.0.2", "127.0.0.1", 4791, 4791)
PERQP = ("127.0.0.2", "127.0.0.1", 0xC123, 4791)

VECTORS = {
    "send_only": packet(B_TO_A, 0x04, payload=b"hello", qpn=0x11, ackreq=1, psn=0x3A2F1C),
    "ud_send_imm": packet(A_TO_B, 0x65,
                          ext=struct.pack("!IB", 0x11111111, 0) + (0x12).to_bytes(3, "big")
                          + bytes.fromhex("deadbeef"),
                          payload=bytes(range(64)), se=1, qpn=0xAB, psn=0xFFFFFF),
    "ack": packet(A_TO_B, 0x11, ext=bytes([0x1F]) + (7).to_bytes(3, "big"), qpn=0x123456,
                  psn=0x100),
    "write_only_imm": packet(PERQP, 0x0B,
                             ext=struct.pack("!QII", 0x8000000000001000, 0xCAFEBABE, 3)
                             + bytes.fromhex("01020304"),
                             payload=b"abc", mig=1, pkey=0x8001, qpn=0xFFFFFE, psn=1),
    "cmp_swap": packet(B_TO_A, 0x13,
                       ext=struct.pack("!QIQQ", 0x1122334455667788, 0x99AABBCC,
                                       0x0102030405060708, 0xA1A2A3A4A5A6A7A8),
                       qpn=0x22, ackreq=1, psn=0x800000),
    "atomic_ack": packet(A_TO_B, 0x12, ext=bytes([0x1F]) + (9).to_bytes(3, "big")
                         + struct.pack("!Q", 0xFEDCBA9876543210), qpn=0x33, psn=0x800000),
    "send_inv": packet(B_TO_A, 0x17, ext=struct.pack("!I", 0xABC), payload=bytes(8), qpn=0x44,
                       ackreq=1, psn=2),
    "read_req": packet(B_TO_A, 0x0C, ext=struct.pack("!QII", 0x7F0000001000, 0x1234, 8192),
                       qpn=0x55, ackreq=1, psn=3),
    "fecn_send_only": packet(B_TO_A, 0x04, payload=b"hello", qpn=0x11, ackreq=1,
                             psn=0x3A2F1C, fecn=1),
}

for name, data in VECTORS.items():
    print(f"static const uint8_t vec_{name}[] = {{ /* {len(data)} bytes */")
    for i in range(0, len(data), 12):
        print("    " + ", ".join(f"0x{b:02x}" for b in data[i:i + 12]) + ",")
    print("};")
