; The Windows installer of Sudden Death, built on Linux by makensis (Debian's nsis package):
;     makensis -DVERSION=0.1.0 -DSOURCE=dist/windows/sudden-death -DOUTFILE=setup.exe
;              -DICON=packaging/sudden-death.ico packaging/installer.nsi
; tools/windows_build.py runs it next to the zip. Why NSIS: its pages are standard Windows
; controls, which screen readers read, and it installs per user with no administrator rights.
;
; It installs into the user's programs folder (%LOCALAPPDATA%\Programs\Sudden Death), adds a
; Start-menu shortcut and, if wanted, one on the desktop, ends on a page that can start the
; game, and lists an uninstaller in Apps. The player's settings, saves and record live apart
; (%APPDATA%\SuddenDeath, logs in %LOCALAPPDATA%\SuddenDeath) and are kept on uninstalling
; unless the player ticks their removal (silently: uninstall.exe /S /REMOVEDATA).
; Silent install: setup.exe /S (optionally /D=C:\Folder, last on the line).

; 64-bit, as the game is: Wine here and 64-bit Windows run it without a 32-bit layer.
Target amd64-unicode
ManifestDPIAware true
RequestExecutionLevel user
SetCompressor /SOLID lzma

!ifndef VERSION | SOURCE | OUTFILE | ICON
  !error "makensis -DVERSION=... -DSOURCE=... -DOUTFILE=... -DICON=... installer.nsi"
!endif

!define PRODUCT "Sudden Death"
!define EXE "sudden-death.exe"
!define UNINSTALL_KEY "Software\Microsoft\Windows\CurrentVersion\Uninstall\SuddenDeath"
!define DATA_FOLDER "SuddenDeath"

Name "${PRODUCT}"
OutFile "${OUTFILE}"
InstallDir "$LOCALAPPDATA\Programs\${PRODUCT}"
InstallDirRegKey HKCU "${UNINSTALL_KEY}" "InstallLocation"
BrandingText "${PRODUCT} ${VERSION}"

VIProductVersion "${VERSION}.0"
VIAddVersionKey /LANG=0 "ProductName" "${PRODUCT}"
VIAddVersionKey /LANG=0 "ProductVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileVersion" "${VERSION}"
VIAddVersionKey /LANG=0 "FileDescription" "${PRODUCT} installer"
VIAddVersionKey /LANG=0 "LegalCopyright" "MIT License"

!include "MUI2.nsh"
!include "FileFunc.nsh"
!include "LogicLib.nsh"

!define MUI_ICON "${ICON}"
!define MUI_UNICON "${ICON}"
!define MUI_ABORTWARNING
!define MUI_COMPONENTSPAGE_NODESC
!define MUI_FINISHPAGE_RUN "$INSTDIR\${EXE}"
!define MUI_FINISHPAGE_RUN_TEXT "$(StartNow)"

!insertmacro MUI_PAGE_WELCOME
!insertmacro MUI_PAGE_COMPONENTS
!insertmacro MUI_PAGE_DIRECTORY
!insertmacro MUI_PAGE_INSTFILES
!insertmacro MUI_PAGE_FINISH

!insertmacro MUI_UNPAGE_CONFIRM
!insertmacro MUI_UNPAGE_COMPONENTS
!insertmacro MUI_UNPAGE_INSTFILES

; The first is the default; Windows' own language picks the other where it is Spanish.
!insertmacro MUI_LANGUAGE "English"
!insertmacro MUI_LANGUAGE "Spanish"

LangString StartNow ${LANG_ENGLISH} "Start ${PRODUCT} now"
LangString StartNow ${LANG_SPANISH} "Iniciar ${PRODUCT} ahora"
LangString GameSection ${LANG_ENGLISH} "${PRODUCT} and its Start-menu shortcut"
LangString GameSection ${LANG_SPANISH} "${PRODUCT} y su acceso en el menú Inicio"
LangString DesktopSection ${LANG_ENGLISH} "A shortcut on the desktop"
LangString DesktopSection ${LANG_SPANISH} "Un acceso directo en el escritorio"
LangString ProgramSection ${LANG_ENGLISH} "The program"
LangString ProgramSection ${LANG_SPANISH} "El programa"
LangString DataSection ${LANG_ENGLISH} "Also your settings, saved games and record"
LangString DataSection ${LANG_SPANISH} "También tu configuración, partidas guardadas e historial"

Section "!$(GameSection)" SecGame
  SectionIn RO
  SetShellVarContext current
  ; Over an older install: its files go first, so none stays behind from that version.
  RMDir /r "$INSTDIR\_internal"
  SetOutPath "$INSTDIR"
  File /r "${SOURCE}\*.*"
  WriteUninstaller "$INSTDIR\uninstall.exe"
  CreateShortcut "$SMPROGRAMS\${PRODUCT}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayName" "${PRODUCT}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayVersion" "${VERSION}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "Publisher" "${PRODUCT}"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "DisplayIcon" "$INSTDIR\${EXE},0"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "InstallLocation" "$INSTDIR"
  WriteRegStr HKCU "${UNINSTALL_KEY}" "UninstallString" '"$INSTDIR\uninstall.exe"'
  WriteRegStr HKCU "${UNINSTALL_KEY}" "QuietUninstallString" '"$INSTDIR\uninstall.exe" /S'
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoModify" 1
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "NoRepair" 1
  ${GetSize} "$INSTDIR" "/S=0K" $0 $1 $2
  WriteRegDWORD HKCU "${UNINSTALL_KEY}" "EstimatedSize" "$0"
SectionEnd

Section "$(DesktopSection)" SecDesktop
  SetShellVarContext current
  CreateShortcut "$DESKTOP\${PRODUCT}.lnk" "$INSTDIR\${EXE}" "" "$INSTDIR\${EXE}" 0
SectionEnd

Section "!un.$(ProgramSection)" UnSecProgram
  SectionIn RO
  SetShellVarContext current
  Delete "$SMPROGRAMS\${PRODUCT}.lnk"
  Delete "$DESKTOP\${PRODUCT}.lnk"
  RMDir /r "$INSTDIR\_internal"
  Delete "$INSTDIR\sudden-death.exe"
  Delete "$INSTDIR\sudden-death-console.exe"
  Delete "$INSTDIR\Read me first.txt"
  Delete "$INSTDIR\LICENSE.txt"
  Delete "$INSTDIR\uninstall.exe"
  RMDir "$INSTDIR"  ; only if nothing else was put there
  DeleteRegKey HKCU "${UNINSTALL_KEY}"
SectionEnd

Section /o "un.$(DataSection)" UnSecData
  SetShellVarContext current
  RMDir /r "$APPDATA\${DATA_FOLDER}"
  RMDir /r "$LOCALAPPDATA\${DATA_FOLDER}"
SectionEnd

Function un.onInit
  ; uninstall.exe /S /REMOVEDATA: the silent way to ask for the player's files to go too.
  ${GetParameters} $0
  ClearErrors
  ${GetOptions} $0 "/REMOVEDATA" $1
  ${IfNot} ${Errors}
    SectionSetFlags ${UnSecData} ${SF_SELECTED}
  ${EndIf}
FunctionEnd
