// libinput, and libudev whose objects its seat API takes, for Swift. Only TouchInput imports this.
#ifndef GESTURED_CLIBINPUT_SHIM_H
#define GESTURED_CLIBINPUT_SHIM_H

#include <libinput.h>
#include <libudev.h>

#endif
