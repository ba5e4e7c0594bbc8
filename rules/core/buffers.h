/* buffers.h — the inspection buffers a payload option can look at.
 *
 * Each dialect names them its own way (Snort 2 `content:"x"; http_uri;`, Snort 3 `http_uri;`,
 * Suricata `http.uri;` or `http_uri` modifier, `uricontent`); the AST records this one id.
 * Names are Suricata's where Suricata has the buffer, else the Snort 3 keyword.
 */
#ifndef RULES_BUFFERS_H
#define RULES_BUFFERS_H

#define RULE_BUFFERS(X)                                                                    \
    X(PKT, "pkt_data")                                                                     \
    X(RAW, "raw_data")                                                                     \
    X(FILE_DATA, "file.data")                                                              \
    X(BASE64, "base64_data")                                                               \
    X(DCE_STUB, "dcerpc.stub_data")                                                        \
    X(HTTP_URI, "http.uri")                                                                \
    X(HTTP_URI_RAW, "http.uri.raw")                                                        \
    X(HTTP_METHOD, "http.method")                                                          \
    X(HTTP_REQUEST_LINE, "http.request_line")                                              \
    X(HTTP_REQUEST_BODY, "http.request_body")                                              \
    X(HTTP_HEADER, "http.header")                                                          \
    X(HTTP_HEADER_RAW, "http.header.raw")                                                  \
    X(HTTP_COOKIE, "http.cookie")                                                          \
    X(HTTP_COOKIE_RAW, "http.cookie.raw")                                                  \
    X(HTTP_USER_AGENT, "http.user_agent")                                                  \
    X(HTTP_HOST, "http.host")                                                              \
    X(HTTP_HOST_RAW, "http.host.raw")                                                      \
    X(HTTP_ACCEPT, "http.accept")                                                          \
    X(HTTP_ACCEPT_ENC, "http.accept_enc")                                                  \
    X(HTTP_ACCEPT_LANG, "http.accept_lang")                                                \
    X(HTTP_CONNECTION, "http.connection")                                                  \
    X(HTTP_CONTENT_TYPE, "http.content_type")                                              \
    X(HTTP_CONTENT_LEN, "http.content_len")                                                \
    X(HTTP_START, "http.start")                                                            \
    X(HTTP_PROTOCOL, "http.protocol")                                                      \
    X(HTTP_HEADER_NAMES, "http.header_names")                                              \
    X(HTTP_REFERER, "http.referer")                                                        \
    X(HTTP_RESPONSE_LINE, "http.response_line")                                            \
    X(HTTP_RESPONSE_BODY, "http.response_body")                                            \
    X(HTTP_STAT_CODE, "http.stat_code")                                                    \
    X(HTTP_STAT_MSG, "http.stat_msg")                                                      \
    X(HTTP_SERVER, "http.server")                                                          \
    X(HTTP_LOCATION, "http.location")                                                      \
    X(HTTP_REQUEST_HEADER, "http.request_header")                                          \
    X(HTTP_RESPONSE_HEADER, "http.response_header")                                        \
    X(HTTP_PARAM, "http_param")                                                            \
    X(HTTP_VERSION, "http_version")                                                        \
    X(HTTP_TRUE_IP, "http_true_ip")                                                        \
    X(HTTP_RAW_REQUEST, "http_raw_request")                                                \
    X(HTTP_RAW_STATUS, "http_raw_status")                                                  \
    X(HTTP_RAW_BODY, "http_raw_body")                                                      \
    X(HTTP_TRAILER, "http_trailer")                                                        \
    X(HTTP_RAW_TRAILER, "http_raw_trailer")                                                \
    X(HTTP2_HEADER_NAME, "http2.header_name")                                              \
    X(JS_DATA, "js_data")                                                                  \
    X(VBA_DATA, "vba_data")                                                                \
    X(FILE_NAME, "file.name")                                                              \
    X(FILE_MAGIC, "file.magic")                                                            \
    X(DNS_QUERY, "dns.query")                                                              \
    X(DNS_ANSWER_NAME, "dns.answer.name")                                                  \
    X(DNS_QUERY_NAME, "dns.query.name")                                                    \
    X(DNS_QUERIES_RRNAME, "dns.queries.rrname")                                            \
    X(DNS_ANSWERS_RRNAME, "dns.answers.rrname")                                            \
    X(DNS_AUTHORITIES_RRNAME, "dns.authorities.rrname")                                    \
    X(DNS_ADDITIONALS_RRNAME, "dns.additionals.rrname")                                    \
    X(DNS_RESPONSE_RRNAME, "dns.response.rrname")                                          \
    X(TLS_SNI, "tls.sni")                                                                  \
    X(TLS_CERT_SUBJECT, "tls.cert_subject")                                                \
    X(TLS_CERT_ISSUER, "tls.cert_issuer")                                                  \
    X(TLS_CERT_SERIAL, "tls.cert_serial")                                                  \
    X(TLS_CERT_FINGERPRINT, "tls.cert_fingerprint")                                        \
    X(TLS_CERTS, "tls.certs")                                                              \
    X(TLS_SUBJECTALTNAME, "tls.subjectaltname")                                            \
    X(TLS_RANDOM, "tls.random")                                                            \
    X(TLS_RANDOM_TIME, "tls.random_time")                                                  \
    X(TLS_RANDOM_BYTES, "tls.random_bytes")                                                \
    X(TLS_ALPN, "tls.alpn")                                                                \
    X(JA3_HASH, "ja3.hash")                                                                \
    X(JA3_STRING, "ja3.string")                                                            \
    X(JA3S_HASH, "ja3s.hash")                                                              \
    X(JA3S_STRING, "ja3s.string")                                                          \
    X(JA4_HASH, "ja4.hash")                                                                \
    X(SSH_PROTO, "ssh.proto")                                                              \
    X(SSH_SOFTWARE, "ssh.software")                                                        \
    X(SSH_HASSH, "ssh.hassh")                                                              \
    X(SSH_HASSH_STRING, "ssh.hassh.string")                                                \
    X(SSH_HASSH_SERVER, "ssh.hassh.server")                                                \
    X(SSH_HASSH_SERVER_STRING, "ssh.hassh.server.string")                                  \
    X(SMB_NAMED_PIPE, "smb.named_pipe")                                                    \
    X(SMB_SHARE, "smb.share")                                                              \
    X(SMB_NTLMSSP_USER, "smb.ntlmssp_user")                                                \
    X(SMB_NTLMSSP_DOMAIN, "smb.ntlmssp_domain")                                            \
    X(KRB5_CNAME, "krb5.cname")                                                            \
    X(KRB5_SNAME, "krb5.sname")                                                            \
    /* a Kerberos 5 message of either side: what krb5_msg_type … run on (no keyword names it) */ \
    X(KRB5_TRANSACTION, "krb5.transaction")                                                \
    /* an NFS transaction (a call): what nfs_procedure and nfs.version run on */          \
    X(NFS_TRANSACTION, "nfs.transaction")                                                  \
    X(SIP_METHOD, "sip.method")                                                            \
    X(SIP_URI, "sip.uri")                                                                  \
    X(SIP_PROTOCOL, "sip.protocol")                                                        \
    X(SIP_STAT_CODE, "sip.stat_code")                                                      \
    X(SIP_STAT_MSG, "sip.stat_msg")                                                        \
    X(SIP_REQUEST_LINE, "sip.request_line")                                                \
    X(SIP_RESPONSE_LINE, "sip.response_line")                                              \
    X(SIP_HEADER, "sip_header")                                                            \
    X(SIP_BODY, "sip_body")                                                                \
    X(SIP_FROM, "sip.from")                                                                \
    X(SIP_TO, "sip.to")                                                                    \
    X(SIP_VIA, "sip.via")                                                                  \
    X(SIP_USER_AGENT, "sip.user_agent")                                                    \
    X(SIP_CONTENT_TYPE, "sip.content_type")                                                \
    X(SIP_CONTENT_LENGTH, "sip.content_length")                                            \
    X(SDP_ORIGIN, "sdp.origin")                                                            \
    X(SDP_SESSION_NAME, "sdp.session_name")                                                \
    X(SDP_SESSION_INFO, "sdp.session_info")                                                \
    X(SDP_URI, "sdp.uri")                                                                  \
    X(SDP_EMAIL, "sdp.email")                                                              \
    X(SDP_PHONE_NUMBER, "sdp.phone_number")                                                \
    X(SDP_CONNECTION_DATA, "sdp.connection_data")                                          \
    X(SDP_BANDWIDTH, "sdp.bandwidth")                                                      \
    X(SDP_TIME, "sdp.time")                                                                \
    X(SDP_REPEAT_TIME, "sdp.repeat_time")                                                  \
    X(SDP_TIMEZONE, "sdp.timezone")                                                        \
    X(SDP_ENCRYPTION_KEY, "sdp.encryption_key")                                            \
    X(SDP_ATTRIBUTE, "sdp.attribute")                                                      \
    X(SDP_MEDIA_MEDIA, "sdp.media.media")                                                  \
    X(SDP_MEDIA_MEDIA_INFO, "sdp.media.media_info")                                        \
    X(SDP_MEDIA_CONNECTION_DATA, "sdp.media.connection_data")                              \
    X(SDP_MEDIA_ENCRYPTION_KEY, "sdp.media.encryption_key")                                \
    X(SNMP_COMMUNITY, "snmp.community")                                                    \
    X(SNMP_USM, "snmp.usm")                                                                \
    X(LDAP_REQUEST_DN, "ldap.request.dn")                                                  \
    X(LDAP_REQUEST_ATTRIBUTE_TYPE, "ldap.request.attribute_type")                          \
    X(LDAP_RESPONSES_DN, "ldap.responses.dn")                                              \
    X(LDAP_RESPONSES_MESSAGE, "ldap.responses.message")                                    \
    X(LDAP_RESPONSES_ATTRIBUTE_TYPE, "ldap.responses.attribute_type")                      \
    X(QUIC_SNI, "quic.sni")                                                                \
    X(QUIC_UA, "quic.ua")                                                                  \
    X(QUIC_VERSION, "quic.version")                                                        \
    X(QUIC_CYU_HASH, "quic.cyu.hash")                                                      \
    X(QUIC_CYU_STRING, "quic.cyu.string")                                                  \
    X(MQTT_CONNECT_CLIENTID, "mqtt.connect.clientid")                                      \
    X(MQTT_CONNECT_USERNAME, "mqtt.connect.username")                                      \
    X(MQTT_CONNECT_PASSWORD, "mqtt.connect.password")                                      \
    X(MQTT_CONNECT_WILLTOPIC, "mqtt.connect.willtopic")                                    \
    X(MQTT_CONNECT_WILLMESSAGE, "mqtt.connect.willmessage")                                \
    X(MQTT_CONNECT_PROTOCOL_STRING, "mqtt.connect.protocol_string")                        \
    X(MQTT_PUBLISH_TOPIC, "mqtt.publish.topic")                                            \
    X(MQTT_PUBLISH_MESSAGE, "mqtt.publish.message")                                        \
    X(MQTT_SUBSCRIBE_TOPIC, "mqtt.subscribe.topic")                                        \
    X(MQTT_UNSUBSCRIBE_TOPIC, "mqtt.unsubscribe.topic")                                    \
    X(DNP3_DATA, "dnp3.data")                                                              \
    X(IKE_VENDOR, "ike.vendor")                                                            \
    X(IKE_KEY_EXCHANGE, "ike.key_exchange_payload")                                        \
    X(IKE_NONCE, "ike.nonce_payload")                                                      \
    X(IKE_INIT_SPI, "ike.init_spi")                                                        \
    X(IKE_RESP_SPI, "ike.resp_spi")                                                        \
    /* an IKE message: what the ike.* integer keywords run on (no keyword names it) */      \
    X(IKE_TRANSACTION, "ike.transaction")                                                  \
    /* a DHCP message: what the dhcp.* integer keywords run on (no keyword names it) */     \
    X(DHCP_TRANSACTION, "dhcp.transaction")                                                \
    X(NTP_REFERENCE_ID, "ntp.reference_id")                                                \
    X(RFB_NAME, "rfb.name")                                                                \
    X(FTP_COMMAND, "ftp.command")                                                          \
    X(FTP_COMMAND_DATA, "ftp.command_data")                                                \
    X(FTP_REPLY, "ftp.reply")                                                              \
    X(FTP_COMPLETION_CODE, "ftp.completion_code")                                          \
    /* an FTP command or its reply: what ftp.mode … run on (no keyword names it) */      \
    X(FTP_TRANSACTION, "ftp.transaction")                                                  \
    X(FTP_DATA_TRANSACTION, "ftp_data.transaction")                                        \
    /* an SMB request or response: what smb.version runs on (no keyword names it) */       \
    X(SMB_TRANSACTION, "smb.transaction")                                                  \
    /* an HTTP/2 transaction's side, once over: what the http2.* frame keywords run on */    \
    X(HTTP2_FRAMES, "http2.frames")                                                        \
    X(SMTP_HELO, "smtp.helo")                                                              \
    X(SMTP_MAIL_FROM, "smtp.mail_from")                                                    \
    X(SMTP_RCPT_TO, "smtp.rcpt_to")                                                        \
    X(EMAIL_FROM, "email.from")                                                            \
    X(EMAIL_TO, "email.to")                                                                \
    X(EMAIL_CC, "email.cc")                                                                \
    X(EMAIL_SUBJECT, "email.subject")                                                      \
    X(EMAIL_DATE, "email.date")                                                            \
    X(EMAIL_MESSAGE_ID, "email.message_id")                                                \
    X(EMAIL_X_MAILER, "email.x_mailer")                                                    \
    X(EMAIL_URL, "email.url")                                                              \
    X(EMAIL_RECEIVED, "email.received")                                                    \
    X(POP3_ARGS, "pop3.args")                                                              \
    X(POP3_RESPONSE, "pop3.response")                                                      \
    X(TCP_HDR, "tcp.hdr")                                                                  \
    X(UDP_HDR, "udp.hdr")                                                                  \
    X(IPV4_HDR, "ipv4.hdr")                                                                \
    X(IPV6_HDR, "ipv6.hdr")                                                                \
    X(ICMPV4_HDR, "icmpv4.hdr")                                                            \
    X(ICMPV6_HDR, "icmpv6.hdr")                                                            \
    X(WEBSOCKET_PAYLOAD, "websocket.payload")                                              \
    /* RFB's security handshake: what rfb.sectype / rfb.secresult run on (no keyword names it) */ \
    X(RFB_AUTH, "rfb.auth")                                                                \
    X(FRAME_TELNET_DATA, "frame:telnet.data")                                              \
    X(FRAME_TELNET_CTL, "frame:telnet.ctl")                                                \
    X(FRAME_TELNET_PDU, "frame:telnet.pdu")                                                \
    X(FRAME_HTTP1_REQUEST, "frame:http1.request")                                          \
    X(FRAME_HTTP1_RESPONSE, "frame:http1.response")                                        \
    X(FRAME_DNS_PDU, "frame:dns.pdu")                                                      \
    X(FRAME_SIP_PDU, "frame:sip.pdu")                                                      \
    X(FRAME_SIP_REQUEST_LINE, "frame:sip.request.line")                                    \
    X(FRAME_SIP_REQUEST_HEADERS, "frame:sip.request.headers")                              \
    X(FRAME_SIP_REQUEST_BODY, "frame:sip.request.body")                                    \
    X(FRAME_SIP_RESPONSE_LINE, "frame:sip.response.line")                                  \
    X(FRAME_SIP_RESPONSE_HEADERS, "frame:sip.response.headers")                            \
    X(FRAME_SIP_RESPONSE_BODY, "frame:sip.response.body")                                  \
    X(FRAME_DCERPC_PDU, "frame:dcerpc.pdu")                                                \
    X(FRAME_DCERPC_HDR, "frame:dcerpc.hdr")                                                \
    X(FRAME_DCERPC_DATA, "frame:dcerpc.data")                                              \
    X(FRAME_SMB1_PDU, "frame:smb1.pdu")                                                    \
    X(FRAME_SMB1_HDR, "frame:smb1.hdr")                                                    \
    X(FRAME_SMB1_DATA, "frame:smb1.data")                                                  \
    X(FRAME_SMB2_PDU, "frame:smb2.pdu")                                                    \
    X(FRAME_SMB2_HDR, "frame:smb2.hdr")                                                    \
    X(FRAME_SMB2_DATA, "frame:smb2.data")                                                  \
    X(FRAME_HTTP2_HDR, "frame:http2.hdr")                                                  \
    X(FRAME_HTTP2_DATA, "frame:http2.data")                                                \
    X(FRAME_HTTP2_PDU, "frame:http2.pdu")                                                  \
    /* the frames of protocols Osprey does not frame yet */                               \
    X(FRAME_OTHER, "frame")                                                                \
    X(IP_SRC, "ip.src")                                                                    \
    X(IP_DST, "ip.dst")

#include <stdbool.h>

enum rule_buffer {
#define RULE_BUFFER_ENUM(id, name) BUF_##id,
    RULE_BUFFERS(RULE_BUFFER_ENUM)
#undef RULE_BUFFER_ENUM
        BUF_COUNT
};

/* Can detection inspect this buffer (packet, stream, or an application buffer the parsers
 * fill)? Content and pcre in any other buffer reject their rule. */
bool buffer_inspectable(unsigned buffer);
/* Does a parser register this buffer (an application buffer: found by its name)? */
bool buffer_parsed(unsigned buffer);

#endif
