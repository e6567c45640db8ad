// Words of moderation (report.js: reporting a player) and of the refusals a sanction or
// a refused name brings, in English and Arabic. Importing this module adds them to
// i18n.js's dictionaries.

import { DICTS } from "./i18n.js";

const EN = {
  report_player: "Report a player", report_profile: "Report this player",
  report_who: "Player", report_reason: "Reason", report_note: "What happened (optional)",
  reason_abuse: "Abusive words or reactions", reason_cheating: "Cheating", reason_name: "An offensive name",
  reason_spam: "Spam or flooding", reason_other: "Something else",
  report_send: "Send the report", report_sent: "Thank you: the report was sent to the site's moderators.",
  err_bad_report: "This report cannot be sent: choose the player and the reason.",
  err_suspended: "This identity is suspended on this site.",
  err_name_not_allowed: "This name is not allowed here: choose another.",
  err_refused_word: "This holds a word not allowed here: write it another way.",
};

const AR = {
  report_player: "الإبلاغ عن لاعب", report_profile: "الإبلاغ عن هذا اللاعب",
  report_who: "اللاعب", report_reason: "السبب", report_note: "ماذا حدث (اختياري)",
  reason_abuse: "كلام أو ردود فعل مسيئة", reason_cheating: "غش", reason_name: "اسم مسيء",
  reason_spam: "إزعاج أو إغراق بالرسائل", reason_other: "شيء آخر",
  report_send: "أرسل البلاغ", report_sent: "شكرًا: وصل البلاغ إلى مشرفي الموقع.",
  err_bad_report: "لا يمكن إرسال هذا البلاغ: اختر اللاعب والسبب.",
  err_suspended: "هذه الهوية موقوفة على هذا الموقع.",
  err_name_not_allowed: "هذا الاسم غير مسموح هنا: اختر اسمًا آخر.",
  err_refused_word: "في هذا النص كلمة غير مسموحة هنا: اكتبه بطريقة أخرى.",
};

Object.assign(DICTS.en, EN);
Object.assign(DICTS.ar, AR);

export const MODERATION_WORDS = { en: EN, ar: AR };
