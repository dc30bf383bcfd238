package io.rdmatrace.verbs;

/** Sees every librdmacm call an {@link RdmaCm} makes and every CM event it takes (a recorder). */
public interface CmListener {
    void onCmCall(RdmaCmCall call);

    void onCmEvent(RdmaCmEvent event);
}
