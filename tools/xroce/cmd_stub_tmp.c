#include "cli.h"
static int r(int c, char **v) { return 1; }
static void u(FILE *o) {}
const struct xr_cmd xr_cmd_attach = {"attach","",r,u}, xr_cmd_detach = {"detach","",r,u}, xr_cmd_status={"status","",r,u};
