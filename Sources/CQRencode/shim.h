#ifndef CQRENCODE_SHIM_H
#define CQRENCODE_SHIM_H
// libqrencode (Debian's libqrencode-dev): the QR symbol for a TOTP enrolment URI. TIL draws
// the matrix itself (Sources/QRCode); only the encoding comes from here.
#include <qrencode.h>
#endif
