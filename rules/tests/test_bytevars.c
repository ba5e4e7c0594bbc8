/* test_bytevars.c — byte_extract and byte_math evaluation, and binding variable values into
 * content, byte_test and isdataat (opt_byte.c, opt_content.c, opt_compare.c). */
#include <string.h>

#include "opt_eval.h"
#include "unit.h"

static void test_extract(void)
{
    const uint8_t buf[] = {0x00, 0x05, '1', '2', 0x07};
    struct opt_byte b = {.bytes = 2};
    int64_t v, end;
    CHECK(byte_extract_eval(&b, buf, sizeof buf, 0, &v, &end) && v == 5 && end == 2);
    b.flags = BYTE_LITTLE;
    CHECK(byte_extract_eval(&b, buf, sizeof buf, 0, &v, &end) && v == 0x500);
    b = (struct opt_byte){.bytes = 2, .offset = 2, .flags = BYTE_STRING, .base = 10,
                          .multiplier = 2};
    CHECK(byte_extract_eval(&b, buf, sizeof buf, 0, &v, &end) && v == 24 && end == 4);
    b = (struct opt_byte){.bytes = 1, .offset = 0, .flags = BYTE_RELATIVE, .align = 4};
    CHECK(byte_extract_eval(&b, buf, sizeof buf, 4, &v, &end) && v == 8 && end == 5);
    CHECK(!byte_extract_eval(&b, buf, sizeof buf, 5, &v, &end)); /* past the end */
}

static void test_math(void)
{
    const uint8_t buf[] = {0x10, 0x03};
    struct opt_byte b = {.bytes = 1, .op = "+", .rvalue = 5};
    int64_t v, end;
    CHECK(byte_math_eval(&b, buf, 2, 0, &v, &end) && v == 21 && end == 1);
    memcpy(b.op, "<<", 3);
    b.rvalue = 2;
    CHECK(byte_math_eval(&b, buf, 2, 0, &v, &end) && v == 64);
    b.rvalue = 70;
    CHECK(byte_math_eval(&b, buf, 2, 0, &v, &end) && v == 0);
    memcpy(b.op, "/", 2);
    b.rvalue = 0;
    CHECK(!byte_math_eval(&b, buf, 2, 0, &v, &end));
    b.rvalue = 4;
    CHECK(byte_math_eval(&b, buf, 2, 0, &v, &end) && v == 4);
    /* the bitmask applies to the result */
    memcpy(b.op, "*", 2);
    b.rvalue = 3;
    b.bitmask = 0xf0;
    CHECK(byte_math_eval(&b, buf, 2, 0, &v, &end) && v == 3); /* 48 & 0xf0 = 0x30 >> 4 */
}

static void test_bind(void)
{
    struct opt_content ct = {.pattern = (const uint8_t *)"ab", .len = 2,
                             .has = CONTENT_DISTANCE | CONTENT_WITHIN, .within = 5,
                             .distance_var = "d"};
    struct opt_content out;
    const char *names[BYTE_VAR_FIELDS];
    content_var_names(&ct, names);
    CHECK(!names[0] && !names[1] && names[2] && !names[3]);
    int64_t vals[BYTE_VAR_FIELDS] = {0, 0, -3, 0};
    CHECK(content_bind(&ct, vals, &out) && out.distance == -3 && out.within == 5);
    ct.within_var = "w";
    vals[3] = 1; /* shorter than the content: cannot match */
    CHECK(!content_bind(&ct, vals, &out));
    vals[3] = (int64_t)1 << 40;
    CHECK(!content_bind(&ct, vals, &out));

    struct opt_byte b = {.bytes = 1, .op = "=", .value_var = "v", .offset_var = "o"};
    struct opt_byte bo;
    int64_t bv[BYTE_VAR_FIELDS] = {7, 1, 0, 0};
    CHECK(byte_bind(&b, bv, &bo) && bo.value == 7 && bo.offset == 1);
    const uint8_t buf[] = {0, 7};
    CHECK(byte_test_eval(&bo, buf, 2, 0));
    bv[1] = INT64_MAX;
    CHECK(!byte_bind(&b, bv, &bo));

    /* the number of bytes from a variable: 1..8 (a string: ..23); a byte_jump also takes 0,
     * which reads the value 0 (it only moves by its offsets) */
    struct opt_byte t = {.op = "=", .value = 7, .bytes_var = "n"};
    int64_t tv[BYTE_VAR_FIELDS] = {0, 0, 0, 2};
    CHECK(byte_bind(&t, tv, &bo) && bo.bytes == 2 && byte_test_eval(&bo, buf, 2, 0));
    tv[3] = 1;
    CHECK(byte_bind(&t, tv, &bo) && !byte_test_eval(&bo, buf, 2, 0)); /* reads 0 */
    tv[3] = 0;
    CHECK(!byte_bind(&t, tv, &bo));
    tv[3] = 9;
    CHECK(!byte_bind(&t, tv, &bo));
    struct opt_byte j = {.bytes_var = "n", .flags = BYTE_RELATIVE};
    int64_t jv[BYTE_VAR_FIELDS] = {0, 0, 0, 0}, to;
    CHECK(byte_bind(&j, jv, &bo) && byte_jump_eval(&bo, buf, 2, 1, &to) && to == 1);

    struct opt_isdataat d = {.var = "n"}, dout;
    int64_t dv[BYTE_VAR_FIELDS] = {3, 0, 0, 0};
    CHECK(isdataat_bind(&d, dv, &dout) && isdataat_match(&dout, 4, 0) &&
          !isdataat_match(&dout, 3, 0));
    dv[0] = -1;
    CHECK(!isdataat_bind(&d, dv, &dout));
}

int main(void)
{
    test_extract();
    test_math();
    test_bind();
    return unit_report("test_bytevars");
}
