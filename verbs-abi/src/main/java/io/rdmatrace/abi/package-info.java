/**
 * The libibverbs ABI facts rdmatrace needs, each written once: for every field of
 * {@code struct ibv_qp_attr} ({@link io.rdmatrace.abi.QpField}) its C name, {@code attr_mask} bit
 * ({@link io.rdmatrace.abi.QpMask}), C type, JNI slot, scenario key, trace attribute and value kind.
 * The binding's codec, the recorders, replay, the scenario runtime and the analyzer loop over these
 * descriptors instead of naming fields one by one; the C slot lists and codec ({@code verbs_abi.h})
 * and the trace's attribute constants are generated from them at build time
 * ({@link io.rdmatrace.abi.gen.AbiSources}).
 */
package io.rdmatrace.abi;
