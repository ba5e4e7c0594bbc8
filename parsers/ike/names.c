/* names.c — the names Suricata writes and reads for IKE: payload types (IKEv1: RFC 2408 §3.1
 * and RFC 3947; IKEv2: RFC 7296 §3.2), IKEv1 SA attribute types and values (RFC 2409
 * Appendix A, IANA's IPsec registry: the keyword ike.chosen_sa_attribute's names and the
 * record's), IKEv2 notify message types (RFC 7296 §3.10.1 and later RFCs). */
#include <string.h>

#include "ike_int.h"

const char *ike_v1_payload_name(uint8_t t)
{
    static const char *const N[] = {
        [0] = "None", [1] = "SecurityAssociation", [2] = "Proposal", [3] = "Transform",
        [4] = "KeyExchange", [5] = "Identification", [6] = "Certificate",
        [7] = "CertificateRequest", [8] = "Hash", [9] = "Signature", [10] = "Nonce",
        [11] = "Notification", [12] = "Delete", [13] = "VendorID", [15] = "SaKekPayload",
        [16] = "SaTekPayload", [17] = "KeyDownload", [18] = "SequenceNumber",
        [19] = "ProofOfPossession", [20] = "NatDiscovery", [21] = "NatOriginalAddress",
        [22] = "GroupAssociatedPolicy"};
    return t < sizeof N / sizeof N[0] ? N[t] : NULL;
}

const char *ike_v2_payload_name(uint8_t t)
{
    static const char *const N[] = {
        "SecurityAssociation", "KeyExchange", "IdentInitiator", "IdentResponder",
        "Certificate", "CertificateRequest", "Authentication", "Nonce", "Notify", "Delete",
        "VendorID", "TrafficSelectorInitiator", "TrafficSelectorResponder",
        "EncryptedAndAuthenticated", "Configuration", "ExtensibleAuthentication",
        "GenericSecurePasswordMethods", "GroupIdentification", "GroupSecurityAssociation",
        "KeyDownload", "EncryptedAndAuthenticatedFragment"};
    if (t == 0)
        return "NoNextPayload";
    return t >= 33 && t < 33 + sizeof N / sizeof N[0] ? N[t - 33] : NULL;
}

static const char *const ATTRS[] = {
    NULL, "alg_enc", "alg_hash", "alg_auth", "alg_dh", "sa_group_type", "sa_group_prime",
    "sa_group_generator_one", "sa_group_generator_two", "sa_group_curve_a",
    "sa_group_curve_b", "sa_life_type", "sa_life_duration", "alg_prf", "sa_key_length",
    "sa_field_size", "sa_group_order"};
#define NATTRS (sizeof ATTRS / sizeof ATTRS[0])

const char *ike_attr_name(uint16_t type)
{
    return type >= 1 && type < NATTRS ? ATTRS[type] : "unknown";
}

int ike_attr_find(const char *name)
{
    for (size_t i = 1; i < NATTRS; i++)
        if (!strcmp(ATTRS[i], name))
            return (int)i;
    return -1;
}

const char *ike_attr_value_name(uint16_t type, uint32_t v)
{
    static const char *const ENC[] = {NULL, "EncDesCbc", "EncIdeaCbc", "EncBlowfishCbc",
                                      "EncRc5R16B64Cbc", "EncTripleDesCbc", "EncCastCbc",
                                      "EncAesCbc", "EncCamelliaCbc"};
    static const char *const HASH[] = {NULL, "HashMd5", "HashSha", "HashTiger",
                                       "HashSha2_256", "HashSha2_384", "HashSha2_512"};
    static const char *const AUTH[] = {NULL, "AuthPreSharedKey", "AuthDssSignatures",
                                       "AuthRsaSignatures", "AuthEncryptionWithRsa",
                                       "AuthRevisedEncryptionWithRsa", "AuthReserved",
                                       "AuthReserved", "AuthReserved", "AuthEcdsaSha256",
                                       "AuthEcdsaSha384", "AuthEcdsaSha512"};
    static const char *const GROUP[] = {
        NULL, "GroupDefault768BitModp", "GroupAlternate1024BitModpGroup",
        "GroupEc2nOnGp2p155", "GroupEc2nOnGp2p185", "GroupModp1536Bit",
        "GroupEc2nOverGf2p163", "GroupEc2nOverGf2p163", "GroupEc2nOverGf2p283",
        "GroupEc2nOverGf2p283", "GroupEc2nOverGf2p409", "GroupEc2nOverGf2p409",
        "GroupEc2nOverGf2p571", "GroupEc2nOverGf2p571", "GroupModp2048Bit",
        "GroupModp3072Bit", "GroupModp4096Bit", "GroupModp6144Bit", "GroupModp8192Bit",
        "GroupRandomEcp256", "GroupRandomEcp384", "GroupRandomEcp521",
        "GroupModp1024With160BitPrime", "GroupModp2048With224BitPrime",
        "GroupModp2048With256BitPrime", "GroupRandomEcp192", "GroupRandomEcp224",
        "GroupBrainpoolEcp224", "GroupBrainpoolEcp256", "GroupBrainpoolEcp384",
        "GroupBrainpoolEcp512"};
    static const char *const LIFE[] = {NULL, "LifeTypeSeconds", "LifeTypeKilobytes"};
#define PICK(t) (v < sizeof t / sizeof t[0] && t[v] ? t[v] : "Unknown")
    switch (type) {
    case 1: return PICK(ENC);
    case 2: return PICK(HASH);
    case 3: return PICK(AUTH);
    case 4: return PICK(GROUP);
    case 11: return PICK(LIFE);
    default: return "Unknown";
    }
#undef PICK
}

const char *ike_v2_notify_name(uint16_t t)
{
    static const struct { uint16_t t; const char *n; } N[] = {
        {1, "UNSUPPORTED_CRITICAL_PAYLOAD"}, {4, "INVALID_IKE_SPI"},
        {5, "INVALID_MAJOR_VERSION"}, {7, "INVALID_SYNTAX"}, {9, "INVALID_MESSAGE_ID"},
        {11, "INVALID_SPI"}, {14, "NO_PROPOSAL_CHOSEN"}, {17, "INVALID_KE_PAYLOAD"},
        {24, "AUTHENTICATION_FAILED"}, {34, "SINGLE_PAIR_REQUIRED"},
        {35, "NO_ADDITIONAL_SAS"}, {36, "INTERNAL_ADDRESS_FAILURE"},
        {37, "FAILED_CP_REQUIRED"}, {38, "TS_UNACCEPTABLE"}, {39, "INVALID_SELECTORS"},
        {43, "TEMPORARY_FAILURE"}, {44, "CHILD_SA_NOT_FOUND"},
        {16384, "INITIAL_CONTACT"}, {16385, "SET_WINDOW_SIZE"},
        {16386, "ADDITIONAL_TS_POSSIBLE"}, {16387, "IPCOMP_SUPPORTED"},
        {16388, "NAT_DETECTION_SOURCE_IP"}, {16389, "NAT_DETECTION_DESTINATION_IP"},
        {16390, "COOKIE"}, {16391, "USE_TRANSPORT_MODE"}, {16392, "HTTP_CERT_LOOKUP_SUPPORTED"},
        {16393, "REKEY_SA"}, {16394, "ESP_TFC_PADDING_NOT_SUPPORTED"},
        {16395, "NON_FIRST_FRAGMENTS_ALSO"}, {16396, "MOBIKE_SUPPORTED"},
        {16404, "MULTIPLE_AUTH_SUPPORTED"}, {16405, "ANOTHER_AUTH_FOLLOWS"},
        {16406, "REDIRECT_SUPPORTED"}, {16417, "IKEV2_FRAGMENTATION_SUPPORTED"},
        {16418, "SIGNATURE_HASH_ALGORITHMS"}};
    for (size_t i = 0; i < sizeof N / sizeof N[0]; i++)
        if (N[i].t == t)
            return N[i].n;
    return NULL;
}
