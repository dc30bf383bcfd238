package io.rdmatrace.verbs;

/** One GID table entry with its type (struct ibv_gid_entry). */
public record IbvGidEntry(Gid gid, int gidIndex, int portNum, GidType gidType, int ndevIfindex) {
}
